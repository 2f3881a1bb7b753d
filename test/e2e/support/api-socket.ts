import { WebSocket } from 'ws';
import type { SocketServerFrame } from '../../../src/shared/api';
import { SocketServerFrameSchema } from '../../../src/shared/api';

export interface ApiSocket {
  ws: WebSocket;
  /** Every frame the server sent, in order, checked against the contract. */
  frames: SocketServerFrame[];
  /** Sends a request and waits for the response or error frame with its id. */
  call(channel: string, payload: unknown): Promise<SocketServerFrame>;
  /** Sends raw text (for malformed-frame tests). */
  sendRaw(text: string | Buffer): void;
  /** Waits for the next frame matching `predicate` (each frame satisfies one wait at most). */
  waitFor(predicate: (frame: SocketServerFrame) => boolean, timeoutMs?: number): Promise<SocketServerFrame>;
  close(): Promise<void>;
}

export interface OpenSocketOptions {
  origin?: string;
  /** Sent as the first frame (`{kind:'auth'}`), and the socket resolves once it is accepted; null sends nothing. */
  token: string | null;
  cookie?: string;
  path?: string;
}

/**
 * Opens `/api` like a page would (Origin, then the token as the first frame). Rejects with SocketRefused (the HTTP
 * status) when the upgrade is refused, and with SocketClosed when the server closes the socket before accepting it.
 */
export function openApiSocket(port: number, options: OpenSocketOptions): Promise<ApiSocket> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  const ws = new WebSocket(`ws://127.0.0.1:${port}${options.path ?? '/api'}`, {
    origin: options.origin ?? `http://127.0.0.1:${port}`,
    headers,
  });
  const frames: SocketServerFrame[] = [];
  const waiters = new Set<() => void>();
  const consumed = new Set<number>();
  let nextId = 1;
  ws.on('message', (data) => {
    frames.push(SocketServerFrameSchema.parse(JSON.parse(String(data))));
    for (const w of waiters) w();
  });

  const waitFor = (predicate: (frame: SocketServerFrame) => boolean, timeoutMs = 10_000): Promise<SocketServerFrame> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        for (let i = 0; i < frames.length; i++) {
          const frame = frames[i];
          if (frame && !consumed.has(i) && predicate(frame)) {
            consumed.add(i);
            resolve(frame);
            return true;
          }
        }
        return false;
      };
      if (check()) return;
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`no matching frame within ${timeoutMs} ms; frames so far: ${JSON.stringify(frames)}`));
      }, timeoutMs);
      const waiter = (): void => {
        if (check()) {
          clearTimeout(timer);
          waiters.delete(waiter);
        }
      };
      waiters.add(waiter);
    });

  const socket: ApiSocket = {
    ws,
    frames,
    call(channel, payload) {
      const id = nextId++;
      ws.send(JSON.stringify({ id, channel, payload }));
      return waitFor((f) => (f.kind === 'response' || f.kind === 'error') && f.id === id);
    },
    sendRaw: (text) => ws.send(text),
    waitFor,
    close: () =>
      new Promise((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };

  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      if (options.token === null) return resolve(socket);
      ws.send(JSON.stringify({ kind: 'auth', token: options.token }));
      waitFor((f) => f.kind === 'authenticated').then(() => resolve(socket), reject);
    });
    ws.once('close', (code, reason) => reject(new SocketClosed(code, reason.toString('utf8'))));
    ws.once('unexpected-response', (_req, res) => {
      reject(new SocketRefused(res.statusCode ?? 0));
      ws.terminate();
    });
    ws.once('error', (err) => reject(err));
  });
}

export class SocketClosed extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`the server closed the socket (${code}: ${reason})`);
    this.name = 'SocketClosed';
  }
}

export class SocketRefused extends Error {
  constructor(readonly status: number) {
    super(`the server refused the socket with HTTP ${status}`);
    this.name = 'SocketRefused';
  }
}
