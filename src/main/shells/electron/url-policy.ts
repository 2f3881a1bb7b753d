// Pure URL decisions of the desktop shell (no electron import: unit-tested under plain Node).

const WEB_PROTOCOLS = new Set(['https:', 'http:']);
const MAX_EXTERNAL_URL = 2048;
/** RFC 6068 header fields a mailto: link may fill in; others (attach=, attachment=, from=...) are refused. */
const MAILTO_FIELDS = new Set(['to', 'cc', 'bcc', 'subject', 'body']);
const MAILTO_ADDRESS_FIELDS = new Set(['to', 'cc', 'bcc']);
// One addr-spec, plainly: local@domain, no spaces, brackets, quotes or separators (no display names, no comments).
const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;

function isAddressList(text: string): boolean {
  const parts = text.split(',').map((p) => p.trim());
  return parts.length > 0 && parts.length <= 20 && parts.every((p) => ADDRESS.test(p));
}

/**
 * A mailto: link for the OS mail client: one or more plain addresses, and only the to/cc/bcc/subject/body fields.
 * Some mail clients honour `attach=` (they have attached local files such as ~/.ssh/id_rsa to the draft), so any
 * field outside that list refuses the whole link.
 */
function mailtoToOpen(url: URL): string | null {
  let to: string;
  try {
    to = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (to.includes('\0') || !isAddressList(to)) return null;
  for (const [name, value] of url.searchParams) {
    const field = name.toLowerCase();
    if (!MAILTO_FIELDS.has(field) || value.includes('\0')) return null;
    if (MAILTO_ADDRESS_FIELDS.has(field) && !isAddressList(value)) return null;
  }
  return url.href;
}

/**
 * The URL to hand to the OS (`shell.openExternal`), or null when it must not be opened: http(s) with a host and
 * no embedded credentials (`https://bank.example@evil.example/`), or a plain mailto: link (see mailtoToOpen);
 * nothing over 2 KB. Anything else (file:, javascript:, custom app schemes, smb: shares...) could run or open
 * local things and is refused.
 */
export function externalUrlToOpen(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_EXTERNAL_URL) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol === 'mailto:') return mailtoToOpen(url);
  if (!WEB_PROTOCOLS.has(url.protocol)) return null;
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
