import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { ApiEvent, SocketServerFrame } from '../../shared/api';
import { SocketRequestSchema } from '../../shared/api';
import { toRpcError } from '../../shared/errors';
import { describeZodError } from '../../shared/validate';
import type { ApiHandlers } from '../app/api-dispatch';
import { dispatchApi } from '../app/api-dispatch';
import { allowedHosts, allowedOrigins, authenticate } from './auth';

/** The largest frame a client may send; anything bigger closes the socket (1009). */
export const MAX_FRAME_BYTES = 1024 * 1024;

export interface SocketApiOptions {
  token: string;
  port: () => number;
  handlers: ApiHandlers;
  onEvent: (listener: (event: ApiEvent) => void) => () => void;
}

export interface SocketApi {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

function refuse(socket: Duplex, status: 401 | 403 | 404, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

function send(ws: WebSocket, frame: SocketServerFrame): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}

function badRequest(ws: WebSocket, id: number | null, message: string): void {
  send(ws, { kind: 'error', id, error: { code: 'BAD_REQUEST', message } });
}

function idOf(value: unknown): number | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
}

/** The same API as the preload bridge, over a WebSocket on `/api`: token and Origin checked before the upgrade. */
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

  wss.on('connection', (ws: WebSocket) => {
    const unsubscribe = options.onEvent((event) => send(ws, { kind: 'event', event }));
    ws.on('message', (data: Buffer, isBinary: boolean) => void onFrame(ws, data, isBinary));
    ws.on('close', unsubscribe);
    ws.on('error', () => ws.terminate());
  });

  return {
    handleUpgrade(req, socket, head) {
      const port = options.port();
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      } catch {
        return refuse(socket, 404, 'Not Found');
      }
      if (!authenticate(req, url, options.token, port)) return refuse(socket, 401, 'Unauthorized');
      if (url.pathname !== '/api') return refuse(socket, 404, 'Not Found');
      if (!allowedOrigins(port).includes(req.headers.origin ?? '')) return refuse(socket, 403, 'Forbidden');
      if (!allowedHosts(port).includes(req.headers.host ?? '')) return refuse(socket, 403, 'Forbidden');
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
