// Pure URL decisions of the desktop shell (no electron import: unit-tested under plain Node).

const EXTERNAL_PROTOCOLS = new Set(['https:', 'http:']);
const MAX_EXTERNAL_URL = 2048;

/**
 * The URL to hand to the OS browser (`shell.openExternal`), or null when it must not be opened: only http(s)
 * with a host, no embedded credentials (`https://bank.example@evil.example/`), nothing over 2 KB. Anything else
 * (file:, javascript:, custom app schemes, smb: shares...) could run or open local things and is refused.
 */
export function externalUrlToOpen(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_EXTERNAL_URL) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (!EXTERNAL_PROTOCOLS.has(url.protocol)) return null;
  if (!url.hostname || url.username || url.password) return null;
  return url.href;
}

/**
 * Whether a frame's URL is the app's own page: same scheme, host and port, and the same document path as one of
 * `appPages` (query and fragment ignored). Used to check the sender of every IPC request and every navigation.
 */
export function isAppPageUrl(frameUrl: string, appPages: readonly string[]): boolean {
  let frame: URL;
  try {
    frame = new URL(frameUrl);
  } catch {
    return false;
  }
  return appPages.some((page) => {
    let expected: URL;
    try {
      expected = new URL(page);
    } catch {
      return false;
    }
    return (
      frame.protocol === expected.protocol &&
      frame.host === expected.host &&
      frame.pathname === expected.pathname &&
      frame.username === '' &&
      frame.password === ''
    );
  });
}

/** The app pages a frame may show: the bundled page, or in development the electron-vite dev server's page. */
export function appPagesFor(bundledPage: string, devServerUrl: string | undefined): string[] {
  if (!devServerUrl) return [bundledPage];
  const root = new URL(devServerUrl);
  if (root.protocol !== 'http:' || !['localhost', '127.0.0.1', '[::1]'].includes(root.hostname)) {
    throw new Error(`refusing a dev server that is not local: ${devServerUrl}`);
  }
  return [new URL('/', root).href, new URL('/index.html', root).href];
}
