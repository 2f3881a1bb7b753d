import { GatehouseError } from '../../shared/errors';

/** The run was cancelled (AbortSignal): not a failure of the model or of the program. */
export class CancelledError extends GatehouseError {
  constructor(message = 'cancelled') {
    super('CANCELLED', message);
    this.name = 'CancelledError';
  }
}

/** The model API could not answer (after retries): status and error type when the API gave them. */
export class ProviderError extends GatehouseError {
  readonly status: number | null;
  readonly errorType: string | null;
  constructor(message: string, details: { status?: number | null; errorType?: string | null } = {}) {
    super('INTERNAL', message);
    this.name = 'ProviderError';
    this.status = details.status ?? null;
    this.errorType = details.errorType ?? null;
  }
}

export function isCancelledError(err: unknown): err is CancelledError {
  return err instanceof CancelledError || (err instanceof GatehouseError && err.code === 'CANCELLED');
}
