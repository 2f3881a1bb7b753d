import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ApiEvent } from '../../../shared/api';
import type { ApiHandlers } from '../../services/app/api-dispatch';
import { newSessionToken, pageUrl } from './auth';
import { createHttpHandler } from './http-handler';
import { LaunchCodes } from './launch-codes';
import { createSocketApi } from './socket-api';
import { FALLBACK_PAGE_CSP, readPageCsp, serverCsp } from './static-files';

export interface WebServerOptions {
  rendererDir: string;
  /** 0 picks a free port. */
  port: number;
  handlers: ApiHandlers;
  onEvent: (listener: (event: ApiEvent) => void) => () => void;
  /** For tests; a fresh random token otherwise. */
  token?: string;
  /** For tests: how long a new socket may take to send its token (AUTH_TIMEOUT_MS otherwise). */
  authTimeoutMs?: number;
}

export interface WebServer {
  readonly port: number;
  readonly token: string;
  /** The one URL a person opens: `http://127.0.0.1:PORT/#token=TOKEN` (the token in the fragment, see pageUrl). */
  readonly url: string;
  /**
   * A link for the system browser's command line: `http://127.0.0.1:PORT/launch/CODE`, which leads to `url` once,
   * within a couple of minutes (see launch-codes.ts), so the token itself is never on a command line.
   */
  launchUrl(): string;
  close(): Promise<void>;
}

/** The browser shell's server: the built renderer and the API socket, on 127.0.0.1 only, behind one token. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const indexFile = path.join(options.rendererDir, 'index.html');
  let indexHtml: string;
  try {
    indexHtml = await fs.promises.readFile(indexFile, 'utf8');
  } catch {
    throw new Error(`the renderer is not built (no ${indexFile}): run \`npm run build\``);
  }
  const rendererDir = await fs.promises.realpath(options.rendererDir);
  const pageCsp = readPageCsp(indexHtml) ?? FALLBACK_PAGE_CSP;
  const token = options.token ?? newSessionToken();
  let port = options.port;
  const currentPort = (): number => port;

  const launchCodes = new LaunchCodes();
  const server = http.createServer(
    createHttpHandler({
      rendererDir,
      port: currentPort,
      csp: (p) => serverCsp(pageCsp, p),
      launch: { codes: launchCodes, token },
    }),
  );
  const sockets = createSocketApi({
    token,
    port: currentPort,
    handlers: options.handlers,
    onEvent: options.onEvent,
    ...(options.authTimeoutMs ? { authTimeoutMs: options.authTimeoutMs } : {}),
  });
  server.on('upgrade', (req, socket, head) => sockets.handleUpgrade(req, socket, head));
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`port ${options.port} on 127.0.0.1 is in use: pass --port 0 to pick a free one`)
          : err,
      ),
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
    url: pageUrl(port, token),
    launchUrl: () => `http://127.0.0.1:${port}/launch/${launchCodes.issue()}`,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
