import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';

/**
 * The whole of a small regular file, or null when it is absent, a symlink (O_NOFOLLOW), not a regular file (a FIFO
 * is opened O_NONBLOCK and refused, never waited on), over `maxBytes`, or unreadable. For files the tools read on
 * their own account (ignore files, files a search scans), never for what a person asked to read (see confined-fs).
 */
export async function readSmallRegularFile(abs: string, maxBytes: number): Promise<Buffer | null> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.size > maxBytes) return null;
    return await handle.readFile();
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
