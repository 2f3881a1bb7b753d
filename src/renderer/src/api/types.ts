import type { GatehouseApi } from '../../../shared/api';

export type ConnectionState =
  | { status: 'connecting'; attempt: number }
  | { status: 'open' }
  | { status: 'closed'; retryInMs: number; reason: string }
  /** The browser shell's token is missing or wrong: no retry helps, the printed URL must be opened again. */
  | { status: 'unauthorized'; reason: string };

/** What the renderer talks to: the typed API plus the state of the link carrying it. */
export interface ApiClient {
  readonly api: GatehouseApi;
  readonly transport: 'bridge' | 'socket';
  connection(): ConnectionState;
  onConnection(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}
