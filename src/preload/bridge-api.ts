import type { ApiChannel, ApiEvent, GatehouseApi } from '../shared/api';
import { API_CHANNELS, ApiEventSchema, ipcChannelName } from '../shared/api';
import type { ErrorCode } from '../shared/errors';
import { bridgeErrorMessage, IpcEnvelopeSchema } from '../shared/ipc-envelope';

/** Sends one request to main and resolves with its reply envelope (`ipcRenderer.invoke` in the real preload). */
export type Invoke = (ipcChannel: string, payload: unknown) => Promise<unknown>;
/** Subscribes to main's pushed events; passes the event payload only, never Electron's event object. */
export type Subscribe = (listener: (payload: unknown) => void) => () => void;

/** A rejection from the bridge: the code is also in the message, since contextBridge keeps only the message. */
class BridgeError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(bridgeErrorMessage({ code, message }));
    this.name = 'GatehouseError';
    this.code = code;
  }
}

/**
 * Main's pushed events, received by one IPC listener registered when the preload runs, handed to the page's
 * listeners. A window the View menu opens is sent its `showView` before the page has subscribed (React mounts
 * after the page loads): with nobody listening yet, the newest `showView` is kept and handed to the first listener
 * that subscribes. Other events are not kept: the page reads the current state when it starts.
 */
export function createEventHub(): { deliver: (payload: unknown) => void; subscribe: Subscribe } {
  const listeners = new Set<(payload: unknown) => void>();
  let pendingView: unknown = null;
  const call = (listener: (payload: unknown) => void, payload: unknown): void => {
    try {
      listener(payload);
    } catch (err) {
      // One listener's error must not keep the event from the others; it is still reported.
      queueMicrotask(() => {
        throw err;
      });
    }
  };
  return {
    deliver(payload) {
      if (listeners.size === 0) {
        const event = ApiEventSchema.safeParse(payload);
        if (event.success && event.data.type === 'showView') pendingView = payload;
        return;
      }
      for (const listener of [...listeners]) call(listener, payload);
    },
    subscribe(listener) {
      listeners.add(listener);
      if (pendingView !== null) {
        const view = pendingView;
        pendingView = null;
        queueMicrotask(() => {
          if (listeners.has(listener)) call(listener, view);
        });
      }
      return () => {
        listeners.delete(listener);
      };
    },
  };
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
