import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { FS_CASE, isInside, isInsideAny } from '../../shared/node/path-containment';
import {
  allowedRoots,
  closeQuietly,
  describeFsError,
  fdRealPath,
  outsideError,
  requireRegularFile,
  toAbsolute,
  type OpenedFile,
} from './confined-fs';
import { ToolError } from './tool';
import type { ToolContext } from './types';

// The write half of the open-time confinement: parents are resolved physically and created only inside a root,
// the final name is opened with O_NOFOLLOW and without O_TRUNC, and nothing is written until the descriptor's
// real path is verified (inside a root, not a protected permission file).

/** Self-protection at open time: the agent never writes Gatehouse's or Claude Code's permission files. */
async function protectedWriteTargets(ctx: Pick<ToolContext, 'projectRoot' | 'protectedPaths'>): Promise<string[]> {
  const root = (await allowedRoots({ projectRoot: ctx.projectRoot, additionalDirectories: [] }))[0] ?? ctx.projectRoot;
  return [
    path.join(root, '.gatehouse'),
    path.join(root, '.claude', 'settings.json'),
    path.join(root, '.claude', 'settings.local.json'),
    ...(ctx.protectedPaths ?? []),
  ];
}

function protectedError(shown: string, real: string): ToolError {
  return new ToolError(
    `protected_path: ${shown} resolves to ${real}, a Gatehouse or Claude Code permission file; the agent may not write it`,
  );
}

/**
 * Resolves the parent folder of `abs` physically (symlinks, then `..`), creating missing folders one at a time
 * when `create` is set, and only inside a root. Returns the parent's real path and the final name.
 */
export async function resolveParent(
  abs: string,
  shown: string,
  roots: readonly string[],
  create: boolean,
): Promise<{ parent: string; name: string }> {
  const parsed = path.parse(abs);
  const segments = abs
    .slice(parsed.root.length)
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.');
  const name = abs.endsWith('/') || abs.endsWith(path.sep) ? '' : (segments.pop() ?? '');
  if (name === '' || name === '..') throw new ToolError(`${shown} does not name a file`);
  let current = parsed.root;
  let missing = false;
  for (const seg of segments) {
    if (seg === '..') {
      current = path.dirname(current);
      continue;
    }
    const candidate = path.join(current, seg);
    if (!missing) {
      const st = await lstatOrNull(candidate);
      if (st !== null) {
        current = await realpathOrRefuse(candidate, shown);
        continue;
      }
      missing = true;
    }
    if (create) {
      if (!isInsideAny(current, roots, FS_CASE)) throw outsideError(shown, candidate);
      try {
        await fsp.mkdir(candidate);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw describeFsError(err, shown);
      }
      current = await realpathOrRefuse(candidate, shown);
      missing = false;
    } else {
      current = candidate;
    }
  }
  if (!missing) current = await realpathOrRefuse(current, shown);
  if (!isInsideAny(current, roots, FS_CASE)) throw outsideError(shown, path.join(current, name));
  return { parent: current, name };
}

export async function lstatOrNull(p: string): Promise<fs.Stats | null> {
  try {
    return await fsp.lstat(p);
  } catch {
    return null;
  }
}

async function realpathOrRefuse(p: string, shown: string): Promise<string> {
  try {
    return await fsp.realpath(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ToolError(`${shown}: ${p} is a dangling symbolic link; refusing`);
    throw describeFsError(err, shown);
  }
}

export interface WritableFile extends OpenedFile {
  created: boolean;
}

/**
 * Opens a file for writing without following a symlink in its last component and without truncating it, then
 * verifies the open file's real path. A final symlink is followed only when its target exists inside a root.
 * `mustExist`: edit_file (no create). The caller truncates and writes only after this returns.
 */
export async function openConfinedForWrite(
  p: string,
  ctx: ToolContext,
  opts: {
    mustExist: boolean;
    /** Test seam: runs between the path checks and the open (where a swap would strike). */ beforeOpen?: () => void | Promise<void>;
  },
): Promise<WritableFile> {
  const roots = await allowedRoots(ctx);
  const abs = toAbsolute(p, ctx.projectRoot);
  const { parent, name } = await resolveParent(abs, p, roots, !opts.mustExist);
  let target = path.join(parent, name);
  const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  const base = O_RDWR | O_NOFOLLOW | O_NONBLOCK;
  const st = await lstatOrNull(target);
  if (st?.isSymbolicLink()) {
    const real = await realpathOrRefuse(target, p);
    if (!isInsideAny(real, roots, FS_CASE)) throw outsideError(p, real);
    target = real;
  }
  await opts.beforeOpen?.();
  let handle: FileHandle;
  let created = false;
  try {
    if (opts.mustExist) {
      handle = await fsp.open(target, base);
    } else {
      try {
        handle = await fsp.open(target, base | O_CREAT | O_EXCL, 0o666);
        created = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        handle = await fsp.open(target, base);
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new ToolError(`${p} became a symbolic link while it was being opened; refusing`);
    }
    throw describeFsError(err, p);
  }
  let realPath: string;
  try {
    realPath = await fdRealPath(handle, target);
  } catch (err) {
    await closeQuietly(handle);
    throw err;
  }
  const refusal = !isInsideAny(realPath, roots, FS_CASE)
    ? outsideError(p, realPath)
    : (await protectedWriteTargets(ctx)).some((prot) => isInside(realPath, prot, FS_CASE))
      ? protectedError(p, realPath)
      : null;
  if (refusal !== null) {
    await closeQuietly(handle);
    if (created) await removeQuietly(realPath); // the empty file this open just created, where it really is
    throw refusal;
  }
  const size = await requireRegularFile(handle, p);
  return { handle, realPath, size, created };
}

async function removeQuietly(p: string): Promise<void> {
  try {
    await fsp.unlink(p);
  } catch {
    // best effort: the empty file we created where we must not write
  }
}
