import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Folders the OS asks the app to open from outside: a folder dropped on the macOS Dock icon (`open-file`), a
// `gatehouse://open?path=…` link (`open-url` on macOS; a launch argument on Windows and Linux) or a file:// URL.
// Pure (no electron import). A link is untrusted input (any web page can offer one): it is parsed strictly here and
// main asks the person before opening the folder it names; nothing is ever run from it.

/** The URL scheme the app registers: `gatehouse://open?path=<absolute folder, percent-encoded>`. */
export const LINK_SCHEME = 'gatehouse';

export type OpenRequest = { kind: 'folder'; path: string } | { kind: 'link'; url: string };

const MAX_LINK_LENGTH = 8192;
const MAX_PATH_LENGTH = 4096;
const MAX_QUEUED = 32;

/** Whether a launch argument is one of our links (the OS passes them as arguments on Windows and Linux). */
export function isAppLink(arg: string): boolean {
  return arg.toLowerCase().startsWith(`${LINK_SCHEME}:`);
}

/**
 * The folder a link names, as an absolute, normalised path, or why the link is refused: only
 * `gatehouse://open?path=ABSOLUTE` (nothing else in it) and `file:` URLs of this machine. Never a network path
 * (`\\server\share` would send the user's Windows credentials to that server when the folder is looked at).
 */
export function folderFromLink(raw: string, platform: NodeJS.Platform): { folder: string } | { error: string } {
  if (raw.length > MAX_LINK_LENGTH) return { error: 'the link is too long' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: 'not a valid link' };
  }
  if (url.username || url.password || url.port || url.hash)
    return { error: 'the link has parts an open link never has' };
  let folder: string;
  if (url.protocol === `${LINK_SCHEME}:`) {
    if (url.hostname !== 'open' || (url.pathname !== '' && url.pathname !== '/'))
      return { error: `only ${LINK_SCHEME}://open?path=FOLDER links are understood` };
    const keys = [...url.searchParams.keys()];
    if (keys.length !== 1 || keys[0] !== 'path')
      return { error: 'the link must give exactly one path and nothing else' };
    folder = url.searchParams.get('path')!;
  } else if (url.protocol === 'file:') {
    if (platform === 'win32') return { error: 'file links are not opened on Windows' };
    if (url.hostname !== '' && url.hostname !== 'localhost') return { error: 'the file link names another machine' };
    if (url.search) return { error: 'the file link has a query' };
    try {
      folder = fileURLToPath(url);
    } catch (err) {
      return { error: `not a file path (${err instanceof Error ? err.message : String(err)})` };
    }
  } else {
    return { error: `not a ${LINK_SCHEME}: or file: link` };
  }
  return checkedFolder(folder, platform);
}

function checkedFolder(folder: string, platform: NodeJS.Platform): { folder: string } | { error: string } {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (folder.length === 0 || folder.length > MAX_PATH_LENGTH || /[\u0000-\u001f\u007f]/.test(folder))
    return { error: 'the path is empty, too long or has control characters' };
  if (platform === 'win32') {
    // A drive letter and a separator: no UNC or device path (\\server\share, \\?\, \\.\), no drive-relative C:dir.
    if (!/^[A-Za-z]:[\\/]/.test(folder)) return { error: 'the path must start with a drive letter (C:\\…)' };
    return { folder: path.win32.resolve(folder) };
  }
  // `//host/…` is a network path on some systems; an absolute path starts with exactly one slash.
  if (!folder.startsWith('/') || folder.startsWith('//')) return { error: 'the path must be absolute (/…)' };
  return { folder: path.posix.resolve(folder) };
}

/**
 * Opens asked for before the app can show them (macOS sends `open-file` before `ready`): kept, in order, until the
 * window exists, then handed over; later ones go straight through. Bounded: an OS (or a page) flooding the app
 * with links does not grow it without end.
 */
export class OpenRequests {
  private queue: OpenRequest[] = [];
  private handler: ((request: OpenRequest) => void) | null = null;

  push(request: OpenRequest): void {
    if (this.handler) this.handler(request);
    else if (this.queue.length < MAX_QUEUED) this.queue.push(request);
  }

  /** Whether something waits to be opened (a launch then does not reopen the last project). */
  waiting(): boolean {
    return this.queue.length > 0;
  }

  /** From now on `handler` opens every request; the ones kept so far go first. */
  attach(handler: (request: OpenRequest) => void): void {
    this.handler = handler;
    const kept = this.queue;
    this.queue = [];
    for (const request of kept) handler(request);
  }
}
