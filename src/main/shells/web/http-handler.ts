import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { allowedHosts } from './auth';
import type { LaunchCodes } from './launch-codes';
import { mimeType, resolveStaticFile } from './static-files';

export interface HttpHandlerOptions {
  /** The built renderer folder (a realpath). */
  rendererDir: string;
  port: () => number;
  /** The Content-Security-Policy for a server on this port. */
  csp: (port: number) => string;
  /** The one-time links of `gatehouse web --open` (launch-codes.ts) and the token they lead to. */
  launch?: { codes: LaunchCodes; token: string };
}

const LAUNCH_PATH = '/launch/';
const LAUNCH_USED =
  'This link opens Gatehouse once, and it was used already or has expired: open the address that ' +
  '`gatehouse web` (or `npm start`) printed in its terminal.';

/** `/launch/CODE`: once, a redirect to the page with its token in the fragment; never again. */
function answerLaunch(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  launch: NonNullable<HttpHandlerOptions['launch']>,
  headers: Record<string, string>,
): void {
  // Only a GET spends the code: a HEAD (a link checker) neither redirects nor uses it up.
  if (req.method !== 'GET') return sendText(res, 405, 'Method not allowed', { ...headers, Allow: 'GET' });
  if (!launch.codes.redeem(url.pathname.slice(LAUNCH_PATH.length))) return sendText(res, 410, LAUNCH_USED, headers);
  // The Host was checked against this server's names: the page keeps the origin the browser asked for.
  res.writeHead(303, { ...headers, Location: `http://${req.headers.host ?? ''}/#token=${launch.token}` });
  res.end();
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

/**
 * A built asset named after its content (Vite's `assets/<name>-<hash>.<ext>`): a new build gives it a new name, so the
 * browser may keep it (and the code it compiled from it) for good instead of fetching and compiling it on every load.
 * Everything else (the page itself, errors) is never stored.
 */
const HASHED_ASSET = /^[\w.-]+-[\w-]{8,}\.(?:js|css|woff2|svg|png|webp|wasm)$/;

export function isImmutableAsset(rendererDir: string, file: string): boolean {
  return path.dirname(file) === path.join(rendererDir, 'assets') && HASHED_ASSET.test(path.basename(file));
}

const IMMUTABLE = 'private, max-age=31536000, immutable';

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * Serves the built renderer, and nothing else. The files are the public build of the app and hold no secret, so
 * they need no credential (the token authenticates the API socket only, in its first message); the Host header
 * must still name this server (no DNS rebinding), and nothing sets a cookie.
 */
export function createHttpHandler(options: HttpHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const port = options.port();
    const headers = securityHeaders(options.csp(port));
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    } catch {
      return sendText(res, 400, 'Bad request', headers);
    }
    if (!allowedHosts(port).includes(req.headers.host ?? ''))
      return sendText(res, 403, 'Forbidden: unexpected Host header', headers);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'Method not allowed', { ...headers, Allow: 'GET, HEAD' });
    if (options.launch && url.pathname.startsWith(LAUNCH_PATH))
      return answerLaunch(req, res, url, options.launch, headers);

    void resolveStaticFile(options.rendererDir, url.pathname).then((found) => {
      if (found.kind === 'bad-request') return sendText(res, 400, 'Bad request', headers);
      if (found.kind === 'not-found') return sendText(res, 404, 'Not found', headers);
      fs.readFile(found.file, (err, body) => {
        if (err) return sendText(res, 404, 'Not found', headers);
        res.writeHead(200, {
          ...headers,
          ...(isImmutableAsset(options.rendererDir, found.file) ? { 'Cache-Control': IMMUTABLE } : {}),
          'Content-Type': mimeType(found.file),
          'Content-Length': body.length,
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    });
  };
}
