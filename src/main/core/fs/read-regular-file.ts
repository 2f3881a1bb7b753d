import fs from 'node:fs';

/** The most of a settings file that is read: a bigger one is refused (named in the error). */
export const MAX_SETTINGS_BYTES = 1024 * 1024;
/** The most of a JSON state file of the user's (trust store, last-good cache, recent projects) that is read. */
export const MAX_STATE_BYTES = 16 * 1024 * 1024;
/** The most of a session transcript that is read (a V8 string cannot hold much more). */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024;

/**
 * A file that was not read because of what it is: a FIFO, a device, a socket, a folder, or bigger than the limit.
 * Its message names the path and the reason. `code` is `ENOTREG` or `EFBIG`.
 */
class RefusedFileError extends Error {
  constructor(
    readonly path: string,
    readonly code: 'ENOTREG' | 'EFBIG',
    readonly reason: string,
  ) {
    super(`${path}: ${reason}; not read`);
    this.name = 'RefusedFileError';
  }
}

function kindOf(st: fs.Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}

function limitText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

// O_NONBLOCK: opening a FIFO never waits for a writer; fstat then refuses it. Symlinks are followed (a settings
// file may be a dotfile manager's link), but only to a regular file: a link to /dev/zero is a device.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

function refusedOpen(file: string, err: unknown): never {
  // A UNIX socket cannot be opened like a file: ENXIO.
  if ((err as NodeJS.ErrnoException).code === 'ENXIO')
    throw new RefusedFileError(file, 'ENOTREG', 'is a socket or a device without a reader, not a regular file');
  throw err;
}

function checkStat(file: string, st: fs.Stats, maxBytes: number, what: string): void {
  if (!st.isFile()) throw new RefusedFileError(file, 'ENOTREG', `is ${kindOf(st)}, not a regular file`);
  if (st.size > maxBytes)
    throw new RefusedFileError(
      file,
      'EFBIG',
      `is too large (${sizeText(st.size)}; the limit for ${what} is ${limitText(maxBytes)})`,
    );
}

export interface ReadRegularOptions {
  maxBytes: number;
  /** What the file is, for the size error ("settings files"). */
  what: string;
}

/**
 * Reads a regular file as UTF-8, never hanging and never reading without bound: opened with O_NONBLOCK, checked
 * with fstat (FIFO, device, socket and folder refused), and at most `maxBytes` read (a file that grows past the limit
 * while being read is refused too). A missing file throws the usual ENOENT error.
 */
export async function readRegularFile(file: string, options: ReadRegularOptions): Promise<string> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, OPEN_FLAGS);
  } catch (err) {
    refusedOpen(file, err);
  }
  try {
    checkStat(file, await handle.stat(), options.maxBytes, options.what);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(256 * 1024);
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > options.maxBytes)
        throw new RefusedFileError(
          file,
          'EFBIG',
          `grew past the limit for ${options.what} (${limitText(options.maxBytes)}) while being read`,
        );
      chunks.push(buf.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** True for "there is no such file" errors (ENOENT, and ENOTDIR for a missing folder on the way). */
export function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** A short reason for a read failure, for reports that name the path themselves. */
export function readFailure(err: unknown): string {
  if (err instanceof RefusedFileError) return err.reason;
  return `cannot read: ${err instanceof Error ? err.message : String(err)}`;
}
