import { create } from 'zustand';
import type { GatehouseApi } from '../../../shared/api';
import type { TrustDefault, TrustScope } from '../../../shared/permission';
import type {
  TrustEntry,
  TrustExtensions,
  TrustPreview,
  TrustStatus,
  TrustStoreError,
} from '../../../shared/trust-contract';
import { errorMessage } from '../api/errors';

/** The open project's trust and the list of decisions, as main last reported them. */
export interface TrustState {
  project: string | null;
  status: TrustStatus | null;
  parent: string | null;
  preview: TrustPreview | null;
  /** The person opened the choice from the chip. */
  choosing: boolean;
  /** The project whose automatic prompt was answered or dismissed in this window (do not ask again at once). */
  answeredFor: string | null;
  busy: boolean;
  error: string | null;
  entries: TrustEntry[];
  trustDefault: TrustDefault | null;
  storeError: TrustStoreError | null;
  listError: string | null;
}

export const useTrust = create<TrustState>(() => ({
  project: null,
  status: null,
  parent: null,
  preview: null,
  choosing: false,
  answeredFor: null,
  busy: false,
  error: null,
  entries: [],
  trustDefault: null,
  storeError: null,
  listError: null,
}));

/** Whether the trust dialog is shown: on request, or when the open project has no decision yet. */
export function selectDialogOpen(s: TrustState): boolean {
  if (!s.status || !s.project) return false;
  return s.choosing || (s.status.needsDecision && s.answeredFor !== s.status.path);
}

export async function loadTrust(api: GatehouseApi): Promise<void> {
  try {
    const answer = await api.getTrust({});
    useTrust.setState({
      project: answer.project,
      status: answer.status,
      parent: answer.parent,
      preview: answer.preview,
      error: null,
    });
  } catch (err) {
    useTrust.setState({ error: errorMessage(err) });
  }
}

export async function loadTrustList(api: GatehouseApi): Promise<void> {
  try {
    const list = await api.listTrust({});
    useTrust.setState({ entries: list.entries, trustDefault: list.default, storeError: list.error, listError: null });
  } catch (err) {
    useTrust.setState({ listError: errorMessage(err) });
  }
}

export function openTrustChoice(): void {
  useTrust.setState({ choosing: true, error: null });
}

/** "Not now": the dialog closes and the project stays untrusted; nothing is stored, so it asks again next time. */
export function dismissTrust(): void {
  const { status } = useTrust.getState();
  useTrust.setState({ choosing: false, answeredFor: status?.path ?? null });
}

/**
 * Records the person's answer for the open project, with what a trusting answer enables (the dialog's switches).
 * The dialog closes either way; a failure is shown.
 */
export async function answerTrust(api: GatehouseApi, scope: TrustScope, extensions?: TrustExtensions): Promise<void> {
  const { status } = useTrust.getState();
  if (!status) return;
  useTrust.setState({ busy: true, choosing: false, answeredFor: status.path });
  try {
    const result = await api.setTrust({
      path: status.path,
      scope,
      ...(extensions && scope !== 'never' ? { extensions } : {}),
    });
    useTrust.setState({ status: result.status, busy: false, error: null });
  } catch (err) {
    useTrust.setState({ busy: false, error: `Could not record the trust decision: ${errorMessage(err)}` });
  }
  await Promise.all([loadTrust(api), loadTrustList(api)]);
}

/** Stores `never` for one folder (restricting is accepted for any folder). */
export async function neverTrust(api: GatehouseApi, path: string): Promise<void> {
  try {
    await api.setTrust({ path, scope: 'never' });
    useTrust.setState({ listError: null });
  } catch (err) {
    useTrust.setState({ listError: `Could not mark ${path} as never trusted: ${errorMessage(err)}` });
  }
  await Promise.all([loadTrust(api), loadTrustList(api)]);
}

export async function revokeTrust(api: GatehouseApi, path: string): Promise<void> {
  try {
    await api.revokeTrust({ path });
    useTrust.setState({ listError: null });
  } catch (err) {
    useTrust.setState({ listError: `Could not revoke ${path}: ${errorMessage(err)}` });
  }
  await Promise.all([loadTrust(api), loadTrustList(api)]);
}

/**
 * Switches extensions of the decision that trusts `path` (the Trusted folders page). Switching one on is accepted
 * for the open project only (main refuses others); the reason is shown.
 */
export async function switchExtensions(
  api: GatehouseApi,
  path: string,
  change: Partial<TrustExtensions>,
): Promise<void> {
  try {
    await api.setTrustExtensions({ path, extensions: change });
    useTrust.setState({ listError: null });
  } catch (err) {
    useTrust.setState({ listError: `Could not change what ${path} enables: ${errorMessage(err)}` });
  }
  await Promise.all([loadTrust(api), loadTrustList(api)]);
}
