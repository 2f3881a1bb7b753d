import type { TrustStatus } from '../../../shared/trust-contract';

/** One sentence for people (CLI, UI): whether the folder is trusted, by which decision, kept where. */
export function describeStatus(s: Omit<TrustStatus, 'reason'>): string {
  switch (s.decision) {
    case 'error':
      return `untrusted: the trust store ${s.error?.path ?? s.storeFile} is corrupt (${s.error?.reason ?? 'unknown reason'}), so every folder is untrusted until it is repaired`;
    case 'default':
      if (s.default === 'trust')
        return `trusted by the global default (trust.default: trust); no decision is stored for ${s.path}`;
      if (s.default === 'never')
        return `untrusted by the global default (trust.default: never); no decision is stored for ${s.path}`;
      return `untrusted: no decision yet for ${s.path} (trust.default: ask), the person will be asked`;
    case 'session':
      return `trusted for this session only (not stored), granted at ${s.storedAt ?? s.path}`;
    case 'directory':
      return s.storedAt === s.path
        ? `trusted (this directory), stored in ${s.storeFile}`
        : `trusted: inside ${s.storedAt ?? '?'}, which is trusted (directory), stored in ${s.storeFile}`;
    case 'parent':
      return `trusted (parent): ${s.storedAt ?? '?'} and everything below it are trusted, stored in ${s.storeFile}`;
    case 'never':
      return s.storedAt === s.path
        ? `never trusted: ${s.path} is marked never, stored in ${s.storeFile}`
        : `never trusted: inside ${s.storedAt ?? '?'}, which is marked never, stored in ${s.storeFile}`;
  }
}
