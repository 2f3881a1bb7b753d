import { GatehouseError } from '../../../shared/errors';

/** A request whose answer can no longer come: the socket to the server closed while it was waiting. */
export class ConnectionLostError extends GatehouseError {
  constructor(message = 'the connection to Gatehouse was lost before the answer arrived') {
    super('CANCELLED', message);
    this.name = 'ConnectionLostError';
  }
}

/** Plain words for any error, for the UI. */
export function errorMessage(err: unknown): string {
  if (err instanceof GatehouseError) return `${err.message} (${err.code})`;
  if (err instanceof Error) return err.message;
  return String(err);
}
