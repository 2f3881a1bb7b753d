import { useCallback, useEffect, useRef } from 'react';
import { create } from 'zustand';
import type { SandboxStatusView } from '../../../shared/sandbox-contract';
import { errorMessage } from '../api/errors';
import { useApi, useApiEvent, useConnection } from '../api/context';
import { useShell } from '../app/store';
import { Shown } from '../display/Shown';

import './sandbox.css';

type BannerState =
  | { kind: 'idle' }
  | { kind: 'status'; status: SandboxStatusView }
  | { kind: 'error'; message: string };

/** The open project's sandbox as last checked (the banner keeps it current; the status bar shows it too). */
export const useSandboxState = create<{ state: BannerState }>(() => ({ state: { kind: 'idle' } }));
const setState = (state: BannerState): void => useSandboxState.setState({ state });

/** Short words for the status bar: "Sandbox: on", "Sandbox: off", "Sandbox: unavailable". */
export function sandboxShort(state: BannerState): { text: string; tone: 'ok' | 'warn' | 'bad' | 'muted' } {
  if (state.kind === 'idle') return { text: 'Sandbox: …', tone: 'muted' };
  if (state.kind === 'error') return { text: 'Sandbox: unknown', tone: 'warn' };
  if (!state.status.enabled) return { text: 'Sandbox: off', tone: 'warn' };
  if (!state.status.available) return { text: 'Sandbox: unavailable', tone: 'bad' };
  return { text: 'Sandbox: on', tone: 'ok' };
}

/** The one line the banner shows for a status, or null when commands are confined and nothing was ignored. */
export function sandboxBannerText(status: SandboxStatusView): { tone: 'alert' | 'notice'; text: string } | null {
  if (status.enabled && !status.available) {
    return {
      tone: 'alert',
      text: `Commands are not sandboxed: ${status.reason ?? 'unknown reason'}. Every command will ask for approval.`,
    };
  }
  if (!status.enabled) return { tone: 'notice', text: 'The command sandbox is turned off in your settings.' };
  return null;
}

/**
 * A persistent line at the top of the app while the open project's commands are not confined by the OS sandbox.
 * It has no close button: it goes away only when the sandbox works again. Re-checked when the project, its trust
 * or the worker changes, and after every run.
 */
export function SandboxBanner() {
  const api = useApi();
  const connected = useConnection().status === 'open';
  const project = useShell((s) => s.info?.project ?? null);
  const state = useSandboxState((s) => s.state);
  const latest = useRef(0);

  const refresh = useCallback(async () => {
    const ticket = ++latest.current;
    try {
      const status = await api.getSandboxStatus({});
      if (ticket === latest.current) setState({ kind: 'status', status });
    } catch (err) {
      if (ticket === latest.current) setState({ kind: 'error', message: errorMessage(err) });
    }
  }, [api]);

  useEffect(() => {
    if (connected && project !== null) void refresh();
  }, [connected, project, refresh]);

  useApiEvent((event) => {
    if (event.type === 'projectChanged' || event.type === 'trustChanged' || event.type === 'runFinished')
      void refresh();
    if (event.type === 'workerStatus' && event.status.state === 'ready') void refresh();
  });

  if (project === null || state.kind === 'idle') return null;
  if (state.kind === 'error') {
    return (
      <div className="sandbox-banner sandbox-banner-notice" role="status">
        <Shown text={`Could not check the command sandbox: ${state.message}`} />
      </div>
    );
  }
  const banner = sandboxBannerText(state.status);
  const warnings = state.status.warnings;
  if (banner === null && warnings.length === 0) return null;
  return (
    <div
      className={`sandbox-banner sandbox-banner-${banner?.tone ?? 'notice'}`}
      role={banner?.tone === 'alert' ? 'alert' : 'status'}
      data-testid="sandbox-banner"
    >
      {banner ? (
        <p>
          <Shown text={banner.text} />
        </p>
      ) : null}
      {warnings.length > 0 ? (
        <ul aria-label="Sandbox settings not applied">
          {warnings.map((w) => (
            <li key={w}>
              <Shown text={`Sandbox settings: ${w}`} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
