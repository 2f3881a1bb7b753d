import fs from 'node:fs';
import path from 'node:path';
import { isStrictlyInside } from '../../../shared/node/path-containment';

/**
 * The renderer is served from a privileged custom scheme rather than file:// (Electron security checklist #18):
 * a page on `app://gatehouse/` can read only the files of the built renderer, while a file:// page could fetch
 * any file of the machine. This module maps a request URL to a file, confined to the renderer folder.
 */
export const APP_SCHEME = 'app';
const APP_HOST = 'gatehouse';
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export interface AppAsset {
  file: string;
  mimeType: string;
}

/**
 * The file for an `app://gatehouse/...` request, or null (answer 404): wrong scheme or host, undecodable path,
 * NUL or backslash in it, a path (after decoding `%2e%2e%2f` and the like) or a symlink that lands outside
 * `rootDir`, or not a regular file. Asynchronous: it runs on the Electron main thread for every request.
 */
export async function resolveAppAsset(rootDir: string, requestUrl: string): Promise<AppAsset | null> {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const root = path.resolve(rootDir);
  const file = path.resolve(root, relative);
  if (!isStrictlyInside(file, root)) return null;
  let realFile: string;
  try {
    const [realRoot, real] = await Promise.all([fs.promises.realpath(root), fs.promises.realpath(file)]);
    realFile = real;
    if (!isStrictlyInside(realFile, realRoot) || !(await fs.promises.stat(realFile)).isFile()) return null;
  } catch {
    return null;
  }
  const mimeType = MIME_TYPES[path.extname(realFile).toLowerCase()] ?? 'application/octet-stream';
  return { file: realFile, mimeType };
}

/**
 * The Content-Security-Policy sent with every page of the app scheme, on top of the page's own meta tag: no
 * remote code, no eval, no plugins, no framing, no form posts.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  // Script sinks take no strings (the page's own meta tag says the same).
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');
