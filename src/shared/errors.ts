import { z } from 'zod';

/** Every error that crosses a process boundary has one of these codes. */
export const ErrorCodeSchema = z.enum([
  'BAD_REQUEST', // the payload failed the contract
  'UNKNOWN_METHOD', // no such channel or method
  'FORBIDDEN', // wrong sender, wrong token, or not allowed
  'NOT_FOUND',
  'TIMEOUT',
  'CANCELLED',
  'WORKER_CRASHED', // the worker died while the request was in flight
  'WORKER_UNAVAILABLE', // the worker is down (restarting, or gave up after repeated crashes)
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const RpcErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
});
export type RpcError = z.infer<typeof RpcErrorSchema>;

/** An Error that carries a contract error code, so it can be sent across a boundary and rebuilt there. */
export class GatehouseError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'GatehouseError';
    this.code = code;
  }
  toJSON(): RpcError {
    return { code: this.code, message: this.message };
  }
}

/** Turns anything thrown into a contract error without leaking stack traces across the boundary. */
export function toRpcError(err: unknown): RpcError {
  if (err instanceof GatehouseError) return err.toJSON();
  if (err instanceof Error) return { code: 'INTERNAL', message: err.message };
  return { code: 'INTERNAL', message: String(err) };
}

export function fromRpcError(err: RpcError): GatehouseError {
  return new GatehouseError(err.code, err.message);
}
