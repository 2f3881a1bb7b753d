import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from './tool';
import type { ToolContext } from './types';

/**
 * The execution-time half of path confinement: file tools open a path, then ask the kernel where the open file
 * really is and refuse when it lies outside the project root and the additional directories. Main judged the path
 * before approving it; this catches anything swapped in since (a symlink for the file or for a parent folder).
 */

/** The roots a tool may touch, as real paths. */
export function allowedRoots(ctx: Pick<ToolContext, 'projectRoot' | 'additionalDirectories'>): string[] {
  return [ctx.projectRoot, ...ctx.additionalDirectories].map((root) => {
    try {
      return fs.realpathSync.native(root);
    } catch {
      return path.resolve(root);
    }
  });
}

const caseInsensitive = process.platform === 'darwin' || process.platform === 'win32';

export function isInside(childPath: string, parentPath: string): boolean {
  const child = caseInsensitive ? childPath.toLowerCase() : childPath;
  const parent = caseInsensitive ? parentPath.toLowerCase() : parentPath;
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

export function insideAnyRoot(real: string, roots: readonly string[]): boolean {
  return roots.some((root) => isInside(real, root));
}

/** The path as the kernel will see it: relative paths hang off the project root, nothing is normalised away. */
export function toAbsolute(p: string, projectRoot: string): string {
  if (p.includes('\0')) throw new ToolError('path contains a NUL byte');
  return path.isAbsolute(p) ? p : `${projectRoot}${path.sep}${p}`;
}

/** How a path is shown to the model: relative to the project root when inside it. */
export function displayPath(real: string, projectRoot: string): string {
  if (real === projectRoot) return '.';
  return isInside(real, projectRoot) ? path.relative(projectRoot, real).split(path.sep).join('/') : real;
}

/** Where an open file descriptor really is (Linux: /proc/self/fd; elsewhere the realpath of what was opened). */
export function fdRealPath(fd: number, openedPath: string): string {
  if (process.platform === 'linux') {
    const link = fs.readlinkSync(`/proc/self/fd/${fd}`);
    if (link.endsWith(' (deleted)')) throw new ToolError(`${openedPath} was deleted while it was being opened`);
    return link;
  }
  return fs.realpathSync.native(openedPath);
}

export function outsideError(shown: string, real: string): ToolError {
  return new ToolError(`path_outside_roots: ${shown} resolves to ${real}, outside the project and its additional directories; refusing`);
}

/** Closes `fd` unless its real path is inside a root; returns that real path. */
function verifyFd(fd: number, openedPath: string, shown: string, roots: readonly string[]): string {
  let real: string;
  try {
    real = fdRealPath(fd, openedPath);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  if (!insideAnyRoot(real, roots)) {
    fs.closeSync(fd);
    throw outsideError(shown, real);
  }
  return real;
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
  fd: number;
  realPath: string;
  size: number;
}

export function requireRegularFile(fd: number, shown: string): number {
  const st = fs.fstatSync(fd);
  if (st.isDirectory()) {
    fs.closeSync(fd);
    throw new ToolError(`${shown} is a directory, not a file`);
  }
  if (!st.isFile()) {
    fs.closeSync(fd);
    throw new ToolError(`${shown} is not a regular file`);
  }
  return st.size;
}

/** Opens an existing file read-only (symlinks followed by the kernel), then checks where it really is. */
export function openConfinedForRead(p: string, ctx: ToolContext): OpenedFile {
  const roots = allowedRoots(ctx);
  const abs = toAbsolute(p, ctx.projectRoot);
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    throw describeFsError(err, p);
  }
  const realPath = verifyFd(fd, abs, p, roots);
  const size = requireRegularFile(fd, p);
  return { fd, realPath, size };
}

export function readWhole(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let position = 0;
  let capacity = Math.max(size, 0) + 1;
  for (;;) {
    const buf = Buffer.allocUnsafe(Math.max(capacity, 64 * 1024));
    const n = fs.readSync(fd, buf, 0, buf.length, position);
    if (n === 0) break;
    chunks.push(buf.subarray(0, n));
    position += n;
    capacity = 64 * 1024;
  }
  return Buffer.concat(chunks);
}

/** Replaces the whole content of an open, verified file. */
export function overwrite(fd: number, content: string): number {
  const data = Buffer.from(content, 'utf8');
  fs.ftruncateSync(fd, 0);
  let written = 0;
  while (written < data.length) written += fs.writeSync(fd, data, written, data.length - written, written);
  return data.length;
}
