import { useEffect, useId, useState } from 'react';
import type { PermissionMode } from '../../../shared/permission';
import { PermissionModeSchema } from '../../../shared/permission';
import { errorMessage } from '../api/errors';
import { useApi, useApiEvent, useConnection } from '../api/context';
import { BypassConfirmDialog } from './BypassConfirmDialog';
import { PERMISSION_MODE_HINTS, PERMISSION_MODE_LABELS } from './mode-labels';
import { refreshPermissionMode, usePermissionMode } from './mode-store';
import './modes.css';
import { Shown, shownText } from '../display/Shown';
import { useChat } from '../chat/chat-store';

/**
 * The composer's permission-mode selector: the mode in force for the session's next calls and where it comes from.
 * Choosing one asks main (which refuses bypass in an untrusted project); bypass first needs an explicit confirmation.
 */
export function PermissionModeSelect({ disabled }: { disabled: boolean }) {
  const api = useApi();
  const connected = useConnection().status === 'open';
  const { state, error } = usePermissionMode();
  const autoFallback = useChat((s) => s.autoFallback);
  const [confirming, setConfirming] = useState(false);
  /** Why main changed the mode on its own (e.g. trust revoked during bypass). */
  const [notice, setNotice] = useState<string | null>(null);
  const ids = { select: useId(), source: useId() };

  useEffect(() => {
    if (connected) void refreshPermissionMode(api);
  }, [api, connected]);

  useApiEvent((event) => {
    if (event.type === 'permissionModeChanged') {
      usePermissionMode.setState({ state: event.state, error: null });
      setNotice(event.reason);
    } else if (event.type === 'projectChanged' || event.type === 'trustChanged' || event.type === 'runFinished')
      void refreshPermissionMode(api);
  });

  const apply = (mode: PermissionMode | null) => {
    setNotice(null);
    api.setPermissionMode({ mode }).then(
      (next) => usePermissionMode.setState({ state: next, error: null }),
      (err: unknown) => usePermissionMode.setState({ error: errorMessage(err) }),
    );
  };

  const choose = (mode: PermissionMode) => {
    if (mode === 'bypassPermissions') setConfirming(true);
    else apply(mode);
  };

  const mode = state?.mode ?? 'default';
  const short = !state
    ? ''
    : state.source === 'session'
      ? 'this session'
      : state.source === 'settings'
        ? 'settings'
        : 'built-in default';
  const long = state?.source === 'settings' ? `settings: ${state.settingsFile ?? ''}` : short;
  const bypassOff = state && !state.trusted ? state.bypassUnavailable : null;
  // Auto mode fell back to manual approval for this session: the classifier is no longer asked.
  const fellBack = mode === 'auto' ? autoFallback : null;

  return (
    <span className="permission-mode">
      <label htmlFor={ids.select}>Permission mode</label>
      <select
        id={ids.select}
        value={mode}
        disabled={disabled || !state}
        aria-describedby={ids.source}
        className={mode === 'bypassPermissions' ? 'permission-mode-bypass' : undefined}
        onChange={(e) => choose(PermissionModeSchema.parse(e.target.value))}
      >
        {PermissionModeSchema.options.map((m) => {
          const why =
            m === 'bypassPermissions' ? state?.bypassUnavailable : m === 'auto' ? state?.autoUnavailable : null;
          const unavailable = Boolean(why) && mode !== m;
          return (
            <option
              key={m}
              value={m}
              disabled={unavailable}
              title={unavailable && why ? shownText(why) : PERMISSION_MODE_HINTS[m]}
            >
              {PERMISSION_MODE_LABELS[m]}
              {unavailable ? ' (unavailable)' : ''}
            </option>
          );
        })}
      </select>
      {state ? (
        <span
          className="permission-mode-source muted"
          aria-hidden="true"
          title={shownText(
            `${PERMISSION_MODE_LABELS[mode]}: ${PERMISSION_MODE_HINTS[mode]} (from ${long})${bypassOff ? `. ${bypassOff}` : ''}`,
          )}
        >
          <Shown
            text={`from ${short}${bypassOff ? ' · bypass unavailable (untrusted)' : ''}${fellBack ? ' · fell back to manual approval' : ''}`}
            lines="inline"
          />
        </span>
      ) : null}
      <span id={ids.source} className="visually-hidden" data-testid="permission-mode-source">
        {state ? (
          <Shown
            text={`${PERMISSION_MODE_HINTS[mode]}; from ${long}.${bypassOff ? ` ${bypassOff}.` : ''}${fellBack ? ` ${fellBack}.` : ''}`}
          />
        ) : (
          ''
        )}
      </span>
      {state?.source === 'session' ? (
        <button type="button" className="link" disabled={disabled} onClick={() => apply(null)}>
          Use settings ({PERMISSION_MODE_LABELS[state.settingsMode]})
        </button>
      ) : null}
      {notice ? (
        <span className="muted" role="status" data-testid="permission-mode-notice">
          <Shown text={notice} />
        </span>
      ) : null}
      {error ? (
        <span className="error" role="alert">
          <Shown text={error} />
        </span>
      ) : null}
      {confirming ? (
        <BypassConfirmDialog
          scope="this chat session"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            apply('bypassPermissions');
          }}
        />
      ) : null}
    </span>
  );
}
