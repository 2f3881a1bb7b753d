import { useConnection, useApiClient } from '../api/context';
import { Shown } from '../display/Shown';
import { connectionText } from './connection-text';

/** The link to main: always up in the desktop app; the socket's state in the browser shell. */
export function ConnectionBadge() {
  const client = useApiClient();
  const state = useConnection();
  if (client.transport === 'bridge') return null;
  const tone = state.status === 'open' ? 'ok' : state.status === 'closed' ? 'bad' : 'warn';
  return (
    <span className={`badge badge-${tone}`} role="status" aria-live="polite" data-testid="connection-status">
      <Shown text={connectionText(state)} lines="inline" />
    </span>
  );
}
