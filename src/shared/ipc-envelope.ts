import { z } from 'zod';
import type { RpcError } from './errors';
import { ErrorCodeSchema, RpcErrorSchema } from './errors';

/**
 * What an Electron `ipcMain.handle` handler returns to the preload. Electron mangles errors thrown by a handler
 * (it prefixes the message and drops every other property), so main never throws across IPC: it answers with
 * this envelope, and the preload turns `ok: false` back into a rejection.
 */
export const IpcEnvelopeSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: RpcErrorSchema }),
]);
export type IpcEnvelope = z.infer<typeof IpcEnvelopeSchema>;

/**
 * Errors crossing Electron's contextBridge keep their message only (custom properties such as `code` are lost),
 * so the preload rejects with a message of the form `[CODE] message`; `parseBridgeError` reads it back in the
 * renderer.
 */
export function bridgeErrorMessage(error: RpcError): string {
  return `[${error.code}] ${error.message}`;
}

export function parseBridgeError(err: unknown): RpcError {
  const message = err instanceof Error ? err.message : String(err);
  // Electron may prefix the message (e.g. "Error invoking remote method ...: Error: "): find the code anywhere.
  const match = /\[([A-Z_]+)\] ([\s\S]*)$/.exec(message);
  if (match) {
    const code = ErrorCodeSchema.safeParse(match[1]);
    if (code.success) return { code: code.data, message: match[2] ?? '' };
  }
  return { code: 'INTERNAL', message };
}
