import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { ApiEvent, SocketServerFrame } from '../../../shared/api';
import { SOCKET_UNAUTHORIZED, SocketAuthSchema, SocketRequestSchema } from '../../../shared/api';
import { toRpcError } from '../../../shared/errors';
import { describeZodError } from '../../../shared/validate';
import type { ApiHandlers } from '../../services/app/api-dispatch';
import { dispatchApi } from '../../services/app/api-dispatch';
import { allowedHosts, allowedOrigins, tokensMatch } from './auth';

/** The largest frame a client may send; anything bigger closes the socket (1009). */
const MAX_FRAME_BYTES = 1024 * 1024;
/** A socket that has not sent its token this long after opening is closed. */
const AUTH_TIMEOUT_MS = 10_000;

export interface SocketApiOptions {
  token: string;
  port: () => number;
  handlers: ApiHandlers;
  onEvent: (listener: (event: ApiEvent) => void) => () => void;
  /** For tests; AUTH_TIMEOUT_MS otherwise. */
  authTimeoutMs?: number;
}

export interface SocketApi {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

function refuseUpgrade(socket: Duplex, status: 403 | 404, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

function send(ws: WebSocket, frame: SocketServerFrame): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}

function badRequest(ws: WebSocket, id: number | null, message: string): void {
  send(ws, { kind: 'error', id, error: { code: 'BAD_REQUEST', message } });
}

/** The token of an `auth` frame, or null for anything else. */
function tokenOf(text: string): string | null {
  try {
    const parsed = SocketAuthSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.token : null;
  } catch {
    return null;
  }
}

function idOf(value: unknown): number | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
}

/** The same API as the preload bridge, over a WebSocket on `/api`: Origin and Host checked before the upgrade, the token in the first frame. */
export function createSocketApi(options: SocketApiOptions): SocketApi {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  async function onFrame(ws: WebSocket, data: Buffer, isBinary: boolean): Promise<void> {
    if (isBinary) return badRequest(ws, null, 'frames must be JSON text');
    let value: unknown;
    try {
      value = JSON.parse(data.toString('utf8'));
    } catch {
      return badRequest(ws, null, 'frame is not valid JSON');
    }
    const parsed = SocketRequestSchema.safeParse(value);
    if (!parsed.success) return badRequest(ws, idOf(value), describeZodError(parsed.error, 'frame'));
    const { id, channel, payload } = parsed.data;
    try {
      const result = await dispatchApi(options.handlers, channel, payload);
      send(ws, { kind: 'response', id, ok: true, result });
    } catch (err) {
      send(ws, { kind: 'error', id, error: toRpcError(err) });
    }
  }

  /**
   * A new socket reads one frame first: `{kind:'auth', token}`. Until it carries the right token nothing else is
   * read and no event is sent; a wrong, malformed or late one closes the socket (SOCKET_UNAUTHORIZED).
   */
  wss.on('connection', (ws: WebSocket) => {
    let unsubscribe: (() => void) | null = null;
    const refuse = (why: string): void => ws.close(SOCKET_UNAUTHORIZED, `unauthorized: ${why}`);
    const timer = setTimeout(() => refuse('no token was sent'), options.authTimeoutMs ?? AUTH_TIMEOUT_MS);
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (unsubscribe) return void onFrame(ws, data, isBinary);
      clearTimeout(timer);
      const token = isBinary ? null : tokenOf(data.toString('utf8'));
      if (!tokensMatch(options.token, token))
        return refuse(token === null ? 'the first frame must carry the token' : 'wrong token');
      unsubscribe = options.onEvent((event) => send(ws, { kind: 'event', event }));
      send(ws, { kind: 'authenticated' });
    });
    ws.on('close', () => {
      clearTimeout(timer);
      unsubscribe?.();
    });
    ws.on('error', () => ws.terminate());
  });

  return {
    handleUpgrade(req, socket, head) {
      const port = options.port();
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      } catch {
        return refuseUpgrade(socket, 404, 'Not Found');
      }
      if (url.pathname !== '/api') return refuseUpgrade(socket, 404, 'Not Found');
      if (!allowedOrigins(port).includes(req.headers.origin ?? '')) return refuseUpgrade(socket, 403, 'Forbidden');
      if (!allowedHosts(port).includes(req.headers.host ?? '')) return refuseUpgrade(socket, 403, 'Forbidden');
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
