import fs from 'node:fs';
import path from 'node:path';
import { isStrictlyInside } from '../../../shared/node/path-containment';

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function mimeType(file: string): string {
  return MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type StaticLookup = { kind: 'file'; file: string } | { kind: 'not-found' } | { kind: 'bad-request' };

/**
 * Maps a URL path to a regular file inside `root` (a realpath). Percent-escapes are decoded once; a path that
 * would leave the root (`..`, encoded slashes, backslashes, NUL, symlinks pointing out) is never served.
 */
export async function resolveStaticFile(root: string, urlPath: string): Promise<StaticLookup> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: 'bad-request' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'bad-request' };
  const segments = decoded.split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.')) return { kind: 'not-found' };
  const relative = segments.length === 0 ? 'index.html' : segments.join(path.sep);
  const candidate = path.resolve(root, relative);
  if (!isStrictlyInside(candidate, root)) return { kind: 'not-found' };
  let real: string;
  try {
    real = await fs.promises.realpath(candidate);
  } catch {
    return { kind: 'not-found' };
  }
  if (!isStrictlyInside(real, root)) return { kind: 'not-found' };
  try {
    if (!(await fs.promises.stat(real)).isFile()) return { kind: 'not-found' };
  } catch {
    return { kind: 'not-found' };
  }
  return { kind: 'file', file: real };
}

/** Used only if the built page lacks its CSP meta tag: as strict as the page's own. */
export const FALLBACK_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types 'none'";

/** The CSP of the page itself (its meta tag), normalised to one line, or null when it has none. */
export function readPageCsp(indexHtml: string): string | null {
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(indexHtml);
  const csp = meta?.[1]?.replace(/\s+/g, ' ').trim().replace(/;\s*$/, '');
  return csp ? csp : null;
}

/**
 * The header CSP of a server on `port`: the page's own policy (so header and meta never disagree) with
 * `connect-src` narrowed to this server's own origin and socket (page script can reach no other local port), plus
 * `frame-ancestors 'none'` (only a header can carry it) and Trusted Types for script sinks if the page lacks them.
 */
export function serverCsp(pageCsp: string, port: number): string {
  const own = `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`;
  const directives = pageCsp
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d.length > 0)
    .map((d) => (/^connect-src\b/i.test(d) ? own : d));
  const has = (name: string): boolean => directives.some((d) => d.toLowerCase().split(/\s+/)[0] === name);
  if (!has('connect-src')) directives.push(own);
  if (!has('frame-ancestors')) directives.push("frame-ancestors 'none'");
  if (!has('require-trusted-types-for')) directives.push("require-trusted-types-for 'script'");
  if (!has('trusted-types')) directives.push("trusted-types 'none'");
  return directives.join('; ');
}
