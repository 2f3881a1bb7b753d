import type { ConnectionState } from '../api/types';

/** A reason as a sentence: its own closing mark kept ("is it still running?"), else a full stop added. */
function sentence(reason: string): string {
  const trimmed = reason.trim();
  return /[.?!…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** What the connection badge says for the socket's state. */
export function connectionText(state: ConnectionState): string {
  switch (state.status) {
    case 'open':
      return 'Connected';
    case 'connecting':
      return `Connecting${state.attempt > 1 ? ` (attempt ${state.attempt})` : ''}…`;
    case 'unauthorized':
      return `Not connected: ${state.reason}`;
    case 'closed':
      return `Disconnected: ${sentence(state.reason)} Retrying in ${Math.ceil(state.retryInMs / 1000)} s`;
  }
}
