import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { FS_CASE, isInside, isInsideAny } from '../../shared/node/path-containment';
import { ToolError } from './tool';
import type { ToolContext } from './types';

/**
 * The execution-time half of path confinement: file tools open a path, then ask the kernel where the open file
 * really is and refuse when it lies outside the project root and the additional directories. Main judged the path
 * before approving it; this catches anything swapped in since (a symlink for the file or for a parent folder).
 */

/** The roots a tool may touch, as real paths. */
export function allowedRoots(ctx: Pick<ToolContext, 'projectRoot' | 'additionalDirectories'>): Promise<string[]> {
  return Promise.all(
    [ctx.projectRoot, ...ctx.additionalDirectories].map((root) => fsp.realpath(root).catch(() => path.resolve(root))),
  );
}

/** The path as the kernel will see it: relative paths hang off the project root, nothing is normalised away. */
export function toAbsolute(p: string, projectRoot: string): string {
  if (p.includes('\0')) throw new ToolError('path contains a NUL byte');
  return path.isAbsolute(p) ? p : `${projectRoot}${path.sep}${p}`;
}

/** How a path is shown to the model: relative to the project root when inside it. */
export function displayPath(real: string, projectRoot: string): string {
  if (real === projectRoot) return '.';
  return isInside(real, projectRoot, FS_CASE) ? path.relative(projectRoot, real).split(path.sep).join('/') : real;
}

/** Where an open file descriptor really is (Linux: /proc/self/fd; elsewhere the realpath of what was opened). */
export async function fdRealPath(handle: FileHandle, openedPath: string): Promise<string> {
  if (process.platform === 'linux') {
    const link = await fsp.readlink(`/proc/self/fd/${handle.fd}`);
    if (link.endsWith(' (deleted)')) throw new ToolError(`${openedPath} was deleted while it was being opened`);
    return link;
  }
  return fsp.realpath(openedPath);
}

export function outsideError(shown: string, real: string): ToolError {
  return new ToolError(
    `path_outside_roots: ${shown} resolves to ${real}, outside the project and its additional directories; refusing`,
  );
}

/** Closes `handle` unless its real path is inside a root; returns that real path. */
async function verifyOpened(
  handle: FileHandle,
  openedPath: string,
  shown: string,
  roots: readonly string[],
): Promise<string> {
  let real: string;
  try {
    real = await fdRealPath(handle, openedPath);
  } catch (err) {
    await closeQuietly(handle);
    throw err;
  }
  if (!isInsideAny(real, roots, FS_CASE)) {
    await closeQuietly(handle);
    throw outsideError(shown, real);
  }
  return real;
}

/** Closes a handle whose work is over or abandoned; a close error changes nothing for the caller. */
export async function closeQuietly(handle: FileHandle): Promise<void> {
  try {
    await handle.close();
  } catch {
    // already closed, or the kernel could not flush a file we only read
  }
}

export function describeFsError(err: unknown, shown: string): Error {
  if (err instanceof ToolError) return err;
  const code = err instanceof Error && 'code' in err ? String((err as NodeJS.ErrnoException).code) : '';
  switch (code) {
    case 'ENOENT':
      return new ToolError(`file not found: ${shown}`);
    case 'EISDIR':
      return new ToolError(`${shown} is a directory, not a file`);
    case 'ENOTDIR':
      return new ToolError(`a parent of ${shown} is not a directory`);
    case 'EACCES':
    case 'EPERM':
      return new ToolError(`permission denied: ${shown}`);
    case 'ELOOP':
      return new ToolError(`too many levels of symbolic links: ${shown}`);
    case 'ENXIO':
      return new ToolError(`${shown} is not a regular file`);
    default:
      return err instanceof Error ? err : new Error(String(err));
  }
}

export interface OpenedFile {
  handle: FileHandle;
  realPath: string;
  size: number;
}

/** The size of an open file that must be a regular file; closes the handle and refuses anything else. */
export async function requireRegularFile(handle: FileHandle, shown: string): Promise<number> {
  let st: fs.Stats;
  try {
    st = await handle.stat();
  } catch (err) {
    await closeQuietly(handle);
    throw describeFsError(err, shown);
  }
  if (st.isFile()) return st.size;
  await closeQuietly(handle);
  throw new ToolError(st.isDirectory() ? `${shown} is a directory, not a file` : `${shown} is not a regular file`);
}

/** Opens an existing file read-only (symlinks followed by the kernel), then checks where it really is. */
export async function openConfinedForRead(p: string, ctx: ToolContext): Promise<OpenedFile> {
  const roots = await allowedRoots(ctx);
  const abs = toAbsolute(p, ctx.projectRoot);
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO planted under the name opens at once (and is then refused) instead of holding a pool thread.
    handle = await fsp.open(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    throw describeFsError(err, p);
  }
  const realPath = await verifyOpened(handle, abs, p, roots);
  const size = await requireRegularFile(handle, p);
  return { handle, realPath, size };
}

/** The whole content of an open file, read through its descriptor (the size may have changed since the stat). */
export async function readWhole(handle: FileHandle, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  let capacity = Math.max(size, 0) + 1;
  for (;;) {
    const buf = Buffer.allocUnsafe(Math.max(capacity, 64 * 1024));
    const { bytesRead } = await handle.read(buf, 0, buf.length, position);
    if (bytesRead === 0) break;
    chunks.push(buf.subarray(0, bytesRead));
    position += bytesRead;
    capacity = 64 * 1024;
  }
  return Buffer.concat(chunks);
}

/** Replaces the whole content of an open, verified file. */
export async function overwrite(handle: FileHandle, content: string): Promise<number> {
  const data = Buffer.from(content, 'utf8');
  await handle.truncate(0);
  let written = 0;
  while (written < data.length)
    written += (await handle.write(data, written, data.length - written, written)).bytesWritten;
  return data.length;
}
