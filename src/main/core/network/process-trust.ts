import { applyNetworkTrust, type TrustState } from '../../../shared/node/trusted-cas';
import { readNetworkSettings, type NetworkSettingsSources } from './network-settings';

/**
 * main's own model call (auto mode's classifier) trusts what the worker trusts: the system store and the CA files of
 * the settings. That means changing this process's default CAs, which only a shell that owns its process may do (the
 * desktop app, `gatehouse run`/`rpc`/`web`), so they opt in; the SDK runs inside someone else's program and leaves
 * that program's TLS as it is. Installed once, with the first call that needs it (before its connection).
 */
let sources: NetworkSettingsSources | null = null;
let state: Promise<TrustState> | null = null;

/** Lets main's own connections use the settings' CAs (the first shell's config folder counts). */
export function trustNetworkSettingsInProcess(from: NetworkSettingsSources): void {
  sources ??= from;
}

/** The CAs of this process, installed on the first call; null where no shell opted in (the SDK). */
export function processNetworkTrust(): Promise<TrustState> | null {
  if (!sources) return null;
  const from = sources;
  state ??= readNetworkSettings(from).then((trust) => applyNetworkTrust(trust));
  return state;
}
