import type { ApiChannel, ApiEvent, GatehouseApi } from '../shared/api';
import { API_CHANNELS, ApiEventSchema, ipcChannelName } from '../shared/api';
import type { ErrorCode } from '../shared/errors';
import { bridgeErrorMessage, IpcEnvelopeSchema } from '../shared/ipc-envelope';

/** Sends one request to main and resolves with its reply envelope (`ipcRenderer.invoke` in the real preload). */
export type Invoke = (ipcChannel: string, payload: unknown) => Promise<unknown>;
/** Subscribes to main's pushed events; passes the event payload only, never Electron's event object. */
export type Subscribe = (listener: (payload: unknown) => void) => () => void;

/** A rejection from the bridge: the code is also in the message, since contextBridge keeps only the message. */
export class BridgeError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(bridgeErrorMessage({ code, message }));
    this.name = 'GatehouseError';
    this.code = code;
  }
}

async function call(invoke: Invoke, channel: ApiChannel, request: unknown): Promise<unknown> {
  let reply: unknown;
  try {
    reply = await invoke(ipcChannelName(channel), request ?? {});
  } catch (err) {
    throw new BridgeError('INTERNAL', `${channel}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const envelope = IpcEnvelopeSchema.safeParse(reply);
  if (!envelope.success) throw new BridgeError('INTERNAL', `${channel}: malformed reply from the main process`);
  if (!envelope.data.ok) throw new BridgeError(envelope.data.error.code, envelope.data.error.message);
  return envelope.data.result;
}

/**
 * The object the preload exposes as `window.gatehouse`: one named function per API channel (generated from the
 * contract's channel list) and `onEvent`. Nothing else: no raw ipcRenderer, no generic "send anything".
 */
export function createBridgeApi(invoke: Invoke, subscribe: Subscribe): GatehouseApi {
  const api: Record<string, unknown> = {};
  for (const channel of API_CHANNELS) {
    api[channel] = (request: unknown) => call(invoke, channel, request);
  }
  api.onEvent = (listener: (event: ApiEvent) => void): (() => void) => {
    if (typeof listener !== 'function') throw new BridgeError('BAD_REQUEST', 'onEvent needs a function');
    return subscribe((payload) => {
      const event = ApiEventSchema.safeParse(payload);
      if (event.success) listener(event.data);
    });
  };
  return Object.freeze(api) as GatehouseApi;
}
