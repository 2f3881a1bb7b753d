import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { allowedHosts, authenticate, sessionCookie } from './auth';
import { mimeType, resolveStaticFile } from './static-files';

export interface HttpHandlerOptions {
  /** The built renderer folder (a realpath). */
  rendererDir: string;
  token: string;
  port: () => number;
  csp: string;
}

function securityHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Serves the built renderer, and nothing else, to whoever holds the token. The first page load carries it in
 * `?token=`; that response sets an HttpOnly, SameSite=Strict cookie which covers the assets and the socket.
 */
export function createHttpHandler(options: HttpHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const headers = securityHeaders(options.csp);
  return (req, res) => {
    const port = options.port();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    } catch {
      return sendText(res, 400, 'Bad request', headers);
    }
    const source = authenticate(req, url, options.token, port);
    if (!source) return sendText(res, 401, 'Unauthorized: open the URL printed by `gatehouse web` (it carries the token).', headers);
    if (!allowedHosts(port).includes(req.headers.host ?? '')) return sendText(res, 403, 'Forbidden: unexpected Host header', headers);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed', { ...headers, Allow: 'GET, HEAD' });

    const found = resolveStaticFile(options.rendererDir, url.pathname);
    if (found.kind === 'bad-request') return sendText(res, 400, 'Bad request', headers);
    if (found.kind === 'not-found') return sendText(res, 404, 'Not found', headers);

    const extra: Record<string, string> = {};
    if (source === 'query') extra['Set-Cookie'] = sessionCookie(options.token, port);
    let body: Buffer;
    try {
      body = fs.readFileSync(found.file);
    } catch {
      return sendText(res, 404, 'Not found', headers);
    }
    res.writeHead(200, { ...headers, ...extra, 'Content-Type': mimeType(found.file), 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
