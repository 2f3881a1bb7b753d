import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ApiEvent } from '../../shared/api';
import type { ApiHandlers } from '../app/api-dispatch';
import { newSessionToken } from './auth';
import { createHttpHandler } from './http-handler';
import { createSocketApi } from './socket-api';
import { readPageCsp } from './static-files';

/** Used only if the built page lacks its CSP meta tag: as strict as the page's own. */
const FALLBACK_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface WebServerOptions {
  rendererDir: string;
  /** 0 picks a free port. */
  port: number;
  handlers: ApiHandlers;
  onEvent: (listener: (event: ApiEvent) => void) => () => void;
  /** For tests; a fresh random token otherwise. */
  token?: string;
}

export interface WebServer {
  readonly port: number;
  readonly token: string;
  /** The one URL a person opens: `http://127.0.0.1:PORT/?token=TOKEN`. */
  readonly url: string;
  close(): Promise<void>;
}

/** The browser shell's server: the built renderer and the API socket, on 127.0.0.1 only, behind one token. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const indexFile = path.join(options.rendererDir, 'index.html');
  if (!fs.existsSync(indexFile)) throw new Error(`the renderer is not built (no ${indexFile}): run \`npm run build\``);
  const rendererDir = fs.realpathSync.native(options.rendererDir);
  const csp = readPageCsp(fs.readFileSync(indexFile, 'utf8')) ?? FALLBACK_CSP;
  const token = options.token ?? newSessionToken();
  let port = options.port;
  const currentPort = (): number => port;

  const server = http.createServer(createHttpHandler({ rendererDir, token, port: currentPort, csp }));
  const sockets = createSocketApi({ token, port: currentPort, handlers: options.handlers, onEvent: options.onEvent });
  server.on('upgrade', (req, socket, head) => sockets.handleUpgrade(req, socket, head));
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new Error(`port ${options.port} on 127.0.0.1 is in use: pass --port 0 to pick a free one`) : err),
    );
    server.listen(options.port, '127.0.0.1', () => {
      server.removeAllListeners('error');
      server.on('error', () => undefined);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
