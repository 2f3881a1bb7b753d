import type { ApiChannel, ApiEvent } from '../../../shared/api';
import { SOCKET_UNAUTHORIZED, SocketServerFrameSchema } from '../../../shared/api';
import type { SocketServerFrame } from '../../../shared/api';
import { GatehouseError, fromRpcError } from '../../../shared/errors';
import { buildApi } from './build-api';
import { ConnectionLostError } from './errors';
import type { ApiClient, ConnectionState } from './types';

/** The part of a browser WebSocket this client uses (so tests can hand in another implementation). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface SocketClientOptions {
  createSocket?: (url: string) => SocketLike;
  /** First reconnect delay, doubled per failed attempt up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A request not answered within this time fails with TIMEOUT. */
  requestTimeoutMs?: number;
}

const OPEN = 1;

interface Pending {
  frame: string;
  sent: boolean;
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** Why a page without a usable token cannot connect. */
const NO_TOKEN_REASON = 'this page has no access token: open the URL that `gatehouse web` printed';

/**
 * The browser shell's client: the API over a WebSocket, with ids correlated and reconnection with backoff. Each new
 * socket first sends `token` (`{kind:'auth'}`); requests go out only once the server answered `authenticated`. A
 * refused token (or none) ends in `unauthorized`, with no retry.
 */
export function createSocketClient(url: string, token: string | null, options: SocketClientOptions = {}): ApiClient {
  const createSocket = options.createSocket ?? ((u: string) => new WebSocket(u) as unknown as SocketLike);
  const initialBackoff = options.initialBackoffMs ?? 250;
  const maxBackoff = options.maxBackoffMs ?? 10_000;
  const requestTimeout = options.requestTimeoutMs ?? 60_000;
  const pending = new Map<number, Pending>();
  const eventListeners = new Set<(event: ApiEvent) => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let socket: SocketLike | null = null;
  let state: ConnectionState = token
    ? { status: 'connecting', attempt: 1 }
    : { status: 'unauthorized', reason: NO_TOKEN_REASON };
  /** The current socket carried the token and the server accepted it. */
  let authenticated = false;
  let failures = 0;
  let nextId = 1;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  function setState(next: ConnectionState): void {
    state = next;
    for (const l of stateListeners) l(next);
  }

  function settle(id: number): Pending | undefined {
    const p = pending.get(id);
    if (p) {
      clearTimeout(p.timer);
      pending.delete(id);
    }
    return p;
  }

  function flush(): void {
    for (const p of pending.values()) {
      if (!p.sent && authenticated && socket?.readyState === OPEN) {
        socket.send(p.frame);
        p.sent = true;
      }
    }
  }

  function onFrame(data: unknown): void {
    let frame: SocketServerFrame;
    try {
      const parsed = SocketServerFrameSchema.safeParse(JSON.parse(String(data)));
      if (!parsed.success) return;
      frame = parsed.data;
    } catch {
      return;
    }
    if (frame.kind === 'authenticated') {
      authenticated = true;
      failures = 0;
      setState({ status: 'open' });
      flush();
    } else if (frame.kind === 'event') {
      for (const l of eventListeners) l(frame.event);
    } else if (frame.kind === 'response') {
      settle(frame.id)?.resolve(frame.result);
    } else if (frame.id !== null) {
      settle(frame.id)?.reject(fromRpcError(frame.error));
    }
  }

  function connect(): void {
    setState({ status: 'connecting', attempt: failures + 1 });
    const ws = createSocket(url);
    socket = ws;
    authenticated = false;
    ws.onopen = () => ws.send(JSON.stringify({ kind: 'auth', token }));
    ws.onmessage = (event) => onFrame(event.data);
    ws.onerror = () => undefined; // a close event always follows
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      authenticated = false;
      for (const [id, p] of pending) if (p.sent) settle(id)?.reject(new ConnectionLostError());
      if (stopped) return;
      if (event.code === SOCKET_UNAUTHORIZED) {
        stopped = true;
        for (const id of [...pending.keys()])
          settle(id)?.reject(new ConnectionLostError(event.reason || 'the token was refused'));
        setState({
          status: 'unauthorized',
          reason: `${event.reason || 'the token was refused'}: open the URL that \`gatehouse web\` printed`,
        });
        return;
      }
      failures++;
      const retryInMs = Math.min(maxBackoff, initialBackoff * 2 ** Math.min(failures - 1, 16));
      const reason =
        event.reason ||
        (failures > 1 ? 'cannot reach Gatehouse: is `gatehouse web` still running?' : 'connection lost');
      setState({ status: 'closed', retryInMs, reason });
      retryTimer = setTimeout(connect, retryInMs);
    };
  }

  function call(channel: ApiChannel, payload: unknown): Promise<unknown> {
    if (state.status === 'unauthorized') return Promise.reject(new ConnectionLostError(state.reason));
    if (stopped) return Promise.reject(new ConnectionLostError('the client was closed'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => settle(id)?.reject(new GatehouseError('TIMEOUT', `${channel}: no answer within ${requestTimeout} ms`)),
        requestTimeout,
      );
      pending.set(id, { frame: JSON.stringify({ id, channel, payload }), sent: false, resolve, reject, timer });
      flush();
    });
  }

  const api = buildApi(call, (listener) => {
    eventListeners.add(listener);
    return () => eventListeners.delete(listener);
  });
  if (token) connect();

  return {
    api,
    transport: 'socket',
    connection: () => state,
    onConnection(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      for (const id of [...pending.keys()]) settle(id)?.reject(new ConnectionLostError('the client was closed'));
      socket?.close();
      socket = null;
    },
  };
}

/** `ws(s)://<this host>/api`: no credential in the URL (the token is the socket's first message). */
export function socketUrlFor(location: { protocol: string; host: string }): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api`;
}
