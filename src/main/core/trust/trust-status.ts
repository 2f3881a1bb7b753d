import type { TrustEntry, TrustStatus, TrustStoreError } from '../../../shared/trust-contract';
import { extensionsOf } from './trust-extensions';
import type { TrustDefaultRead } from './trust-settings';
import { describeStatus } from './trust-status-text';

export interface TrustStatusFacts {
  /** The folder's real path. */
  path: string;
  storeFile: string;
  /** The store could not be read: every folder is untrusted. */
  error: TrustStoreError | null;
  /** The nearest decision walking up from the folder, or null (the default applies). */
  applying: TrustEntry | null;
  settings: TrustDefaultRead;
}

/** A folder's trust status, with its reason in words, from the decision that applies (or the default). */
export function trustStatus(facts: TrustStatusFacts): TrustStatus {
  const { error, applying: e, settings } = facts;
  const base = { path: facts.path, storeFile: facts.storeFile, default: settings.value, settingsError: settings.error };
  if (error) {
    const status = {
      ...base,
      trusted: false,
      decision: 'error',
      scope: null,
      storedAt: null,
      needsDecision: false,
      grantedAt: null,
      lastOpened: null,
      grantedFrom: null,
      error,
    } as const;
    return { ...status, reason: describeStatus(status) };
  }
  if (!e) {
    const trusted = settings.value === 'trust';
    const status = {
      ...base,
      trusted,
      decision: 'default',
      scope: null,
      storedAt: null,
      needsDecision: settings.value === 'ask',
      grantedAt: null,
      lastOpened: null,
      grantedFrom: null,
      error: null,
    } as const;
    return { ...status, reason: describeStatus(status) };
  }
  const status = {
    ...base,
    trusted: e.scope !== 'never',
    decision: e.scope,
    scope: e.scope,
    storedAt: e.path,
    needsDecision: false,
    grantedAt: e.grantedAt,
    lastOpened: e.lastOpened,
    grantedFrom: e.grantedFrom,
    error: null,
  } as const;
  return { ...status, reason: describeStatus(status), extensions: extensionsOf(e) };
}
