import { useConnection, useApiClient } from '../api';
import { Shown } from '../display';

/** The link to main: always up in the desktop app; the socket's state in the browser shell. */
export function ConnectionBadge() {
  const client = useApiClient();
  const state = useConnection();
  if (client.transport === 'bridge') return null;
  const text =
    state.status === 'open'
      ? 'Connected'
      : state.status === 'connecting'
        ? `Connecting${state.attempt > 1 ? ` (attempt ${state.attempt})` : ''}…`
        : state.status === 'unauthorized'
          ? `Not connected: ${state.reason}`
          : `Disconnected: ${state.reason}. Retrying in ${Math.ceil(state.retryInMs / 1000)} s`;
  const tone = state.status === 'open' ? 'ok' : state.status === 'closed' ? 'bad' : 'warn';
  return (
    <span className={`badge badge-${tone}`} role="status" aria-live="polite" data-testid="connection-status">
      <Shown text={text} lines="inline" />
    </span>
  );
}
