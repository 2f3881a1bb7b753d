/** Turns what a blocked command printed into a clear tool error for the model ("blocked by sandbox: ..."). */
import * as path from 'node:path';
import type { ProxyDenial } from './domain-proxy';
import { hidingRule, type HiddenPath } from './hidden-paths';
import { isInside, relativeEscapes } from '../shared/node/path-containment';

export interface ViolationContext {
  projectRoot: string;
  writableRoots: readonly string[];
  protectedPaths: readonly string[];
  home: string;
  allowedDomains: readonly string[];
  /** Proxy denials during the command (newest last). */
  denials: readonly ProxyDenial[];
  /** The command's private temp dir as it sees it (`/tmp` under bubblewrap). */
  tmpDir?: string;
  /** Seatbelt refuses with EPERM ("Operation not permitted"), bubblewrap's read-only binds with EROFS. */
  mechanism?: 'bubblewrap' | 'seatbelt';
  /** What the `Read` deny rules hide (empty folders, empty files or EACCES inside the sandbox). */
  hidden?: readonly HiddenPath[];
  /** Paths inside the writable roots kept read-only (write-guards.ts: permission rules, git hooks and config). */
  guarded?: readonly string[];
  /** Folders on the way to them, which cannot be renamed or removed (EBUSY). */
  pinned?: readonly string[];
  /** The command ran in the read-only profile (read-only-profile.ts): every write and all network are refused. */
  readOnly?: boolean;
}

/** Why a command of the read-only profile could not write or connect. */
const READ_ONLY_WHY =
  'the command ran in the read-only sandbox (it was allowed without asking because it looks read-only), which ' +
  'lets it write only its own temporary folder and reach no network';

/** Hidden paths looked for by name in an error line (relative mentions such as `cat: secrets/key.txt: ...`). */
const MAX_HIDDEN_SCANNED = 2_000;
const BEFORE_NAME = /[\s'"`‘(=,]/;
const AFTER_NAME = /[\s'"`’:,)/]/;
const boundary = (c: string, re: RegExp): boolean => c === '' || re.test(c);

/** Whether an error line names `p` by its project-relative or absolute spelling. */
function names(line: string, p: string, ctx: ViolationContext): boolean {
  const rel = path.relative(ctx.projectRoot, p);
  const forms = rel && !relativeEscapes(rel) ? [p, rel, `./${rel}`] : [p];
  return forms.some((f) => {
    for (let i = line.indexOf(f); i !== -1; i = line.indexOf(f, i + 1)) {
      if (boundary(line.charAt(i - 1), BEFORE_NAME) && boundary(line.charAt(i + f.length), AFTER_NAME)) return true;
    }
    return false;
  });
}

/** The hidden paths an error line names. */
function hiddenNamed(line: string, ctx: ViolationContext): HiddenPath[] {
  return (ctx.hidden ?? []).slice(0, MAX_HIDDEN_SCANNED).filter((h) => names(line, h.path, ctx));
}

/** What an error line says about the guarded paths (write-guards.ts) it names. */
function guardedViolations(line: string, writeDenied: boolean, busy: boolean, ctx: ViolationContext): string[] {
  const out: string[] = [];
  const shown = (p: string): string => {
    const rel = path.relative(ctx.projectRoot, p);
    return rel !== '' && !relativeEscapes(rel) ? rel : displayPath(p, ctx.home);
  };
  if (writeDenied || busy) {
    for (const g of ctx.guarded ?? []) {
      if (names(line, g, ctx))
        out.push(
          `${shown(g)} is read-only in the sandbox: commands cannot change, move or remove permission rules, git hooks or git config`,
        );
    }
  }
  if (busy) {
    for (const p of ctx.pinned ?? [])
      if (names(line, p, ctx))
        out.push(`${shown(p)} cannot be moved or removed in the sandbox (it leads to git hooks or git config)`);
  }
  return out;
}

function hiddenMessage(h: HiddenPath, ctx: ViolationContext): string {
  const rel = path.relative(ctx.projectRoot, h.path);
  const shown = rel && !relativeEscapes(rel) ? rel : displayPath(h.path, ctx.home);
  return `${shown} is hidden by the Read deny rule ${h.rule} (the sandbox shows it empty or unreadable)`;
}

/** bubblewrap's read-only binds fail writes with EROFS, never EACCES: an unambiguous sign of the sandbox. */
const WRITE_DENIED = /read-only file system|EROFS|Errno 30\b/i;
const SEATBELT_DENIED = /operation not permitted|EPERM|Errno 1\b/i;
const BUSY = /device or resource busy|EBUSY/i;
const READ_HIDDEN = /no such file or directory|ENOENT|permission denied|EACCES|not permitted/i;
const PROXY_REFUSED =
  /CONNECT tunnel failed, response 403|Received HTTP code 403 from proxy|blocked by sandbox: (network|could not resolve|.* resolves to)|\b403 Forbidden\b.*proxy|complete SOCKS5 connection to .*\(2\)|not allowed by ruleset/i;
const NO_NETWORK =
  /could not resolve host|temporary failure in name resolution|name or service not known|getaddrinfo (ENOTFOUND|EAI_AGAIN)|network is unreachable|ENETUNREACH|failed to connect to .*(connection refused|couldn't connect)|ECONNREFUSED/i;

/** Absolute, `~/` and `./`, `../` paths mentioned on a line (relative ones resolved against the project), as the tools print them: quoted, after a colon, bare. */
export function pathsInLine(line: string, home: string, cwd: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s'"`‘(=,])((?:~|\.{1,2})?\/[^\s'"`’:,)]*)/g;
  for (const m of line.matchAll(re)) {
    const raw = m[1];
    if (raw === undefined || raw === '/' || /^\/\/|^\/dev\/(null|tty)/.test(raw)) continue;
    const abs = raw.startsWith('~/') ? path.join(home, raw.slice(2)) : path.resolve(cwd, raw);
    out.push(abs);
  }
  return out;
}

function displayPath(p: string, home: string): string {
  return isInside(p, home) && p !== home ? `~/${path.relative(home, p)}` : p;
}

function fileViolations(output: string, ctx: ViolationContext): string[] {
  const found: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const writeDenied = (ctx.mechanism === 'seatbelt' ? SEATBELT_DENIED : WRITE_DENIED).test(line);
    const readHidden = READ_HIDDEN.test(line);
    const busy = BUSY.test(line);
    if (!writeDenied && !readHidden && !busy) continue;
    found.push(...guardedViolations(line, writeDenied, busy, ctx));
    const named = hiddenNamed(line, ctx);
    for (const h of named) found.push(hiddenMessage(h, ctx));
    for (const p of pathsInLine(line, ctx.home, ctx.projectRoot)) {
      const hiding = hidingRule(p, ctx.hidden ?? []);
      if (hiding !== null) {
        if (!named.includes(hiding)) found.push(hiddenMessage(hiding, ctx));
        continue;
      }
      if (ctx.protectedPaths.some((prot) => isInside(p, prot))) {
        const what = ctx.mechanism === 'seatbelt' ? 'access to' : writeDenied ? 'write to' : 'read of'; // EPERM says neither
        found.push(`${what} a protected path: ${displayPath(p, ctx.home)}`);
      } else if (writeDenied && !isInside(p, ctx.tmpDir ?? '/tmp') && !ctx.writableRoots.some((r) => isInside(p, r))) {
        found.push(ctx.readOnly ? `write to ${p}: ${READ_ONLY_WHY}` : `write outside the project: ${p}`);
      }
    }
  }
  return found;
}

function networkViolations(output: string, exitCode: number | null, ctx: ViolationContext): string[] {
  if (ctx.readOnly) return exitCode !== 0 && NO_NETWORK.test(output) ? [`network access: ${READ_ONLY_WHY}`] : [];
  const allowed = ctx.allowedDomains.length === 0 ? 'none' : ctx.allowedDomains.join(', ');
  const last = ctx.denials[ctx.denials.length - 1];
  if (last !== undefined && (PROXY_REFUSED.test(output) || exitCode !== 0)) {
    return [`${last.reason} (allowed domains: ${allowed})`];
  }
  if (PROXY_REFUSED.test(output))
    return [`network access to a domain that is not allowed (allowed domains: ${allowed})`];
  if (exitCode !== 0 && ctx.allowedDomains.length === 0 && NO_NETWORK.test(output)) {
    return ['network access is disabled (no allowed domains; add one to sandbox.network.allowedDomains)'];
  }
  return [];
}

/** `blocked by sandbox: ...` for each distinct violation the output shows (at most 3), or null. */
export function describeViolation(output: string, exitCode: number | null, ctx: ViolationContext): string | null {
  const bwrapFailure = /^bwrap: (.+)$/m.exec(output);
  if (bwrapFailure?.[1] !== undefined && exitCode !== 0)
    return `blocked by sandbox: the sandbox could not start the command: ${bwrapFailure[1]}`;
  const files = fileViolations(output, ctx);
  // A write the lines name by a bare relative path (`touch: cannot touch 'x'`) still deserves the reason.
  if (
    ctx.readOnly &&
    files.length === 0 &&
    (ctx.mechanism === 'seatbelt' ? SEATBELT_DENIED : WRITE_DENIED).test(output)
  )
    files.push(`a write: ${READ_ONLY_WHY}`);
  const all = [...new Set([...files, ...networkViolations(output, exitCode, ctx)])];
  if (all.length === 0) return null;
  const shown = all.slice(0, 3).map((v) => `blocked by sandbox: ${v}`);
  if (all.length > 3) shown.push(`(and ${all.length - 3} more)`);
  return shown.join('\n');
}
