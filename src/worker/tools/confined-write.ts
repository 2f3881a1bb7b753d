import fs from 'node:fs';
import path from 'node:path';
import { allowedRoots, describeFsError, fdRealPath, insideAnyRoot, isInside, outsideError, requireRegularFile, toAbsolute, type OpenedFile } from './confined-fs';
import { ToolError } from './tool';
import type { ToolContext } from './types';

// The write half of the open-time confinement: parents are resolved physically and created only inside a root,
// the final name is opened with O_NOFOLLOW and without O_TRUNC, and nothing is written until the descriptor's
// real path is verified (inside a root, not a protected permission file).

/** Self-protection at open time: the agent never writes Gatehouse's or Claude Code's permission files. */
export function protectedWriteTargets(ctx: Pick<ToolContext, 'projectRoot' | 'protectedPaths'>): string[] {
  const root = allowedRoots({ projectRoot: ctx.projectRoot, additionalDirectories: [] })[0] ?? ctx.projectRoot;
  return [
    path.join(root, '.gatehouse'),
    path.join(root, '.claude', 'settings.json'),
    path.join(root, '.claude', 'settings.local.json'),
    ...(ctx.protectedPaths ?? []),
  ];
}

function protectedError(shown: string, real: string): ToolError {
  return new ToolError(`protected_path: ${shown} resolves to ${real}, a Gatehouse or Claude Code permission file; the agent may not write it`);
}

/**
 * Resolves the parent folder of `abs` physically (symlinks, then `..`), creating missing folders one at a time
 * when `create` is set, and only inside a root. Returns the parent's real path and the final name.
 */
export function resolveParent(abs: string, shown: string, roots: readonly string[], create: boolean): { parent: string; name: string } {
  const parsed = path.parse(abs);
  const segments = abs.slice(parsed.root.length).split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
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
      const st = lstatOrNull(candidate);
      if (st !== null) {
        current = realpathOrRefuse(candidate, shown);
        continue;
      }
      missing = true;
    }
    if (create) {
      if (!insideAnyRoot(current, roots)) throw outsideError(shown, candidate);
      try {
        fs.mkdirSync(candidate);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw describeFsError(err, shown);
      }
      current = fs.realpathSync.native(candidate);
      missing = false;
    } else {
      current = candidate;
    }
  }
  if (!missing) current = realpathOrRefuse(current, shown);
  if (!insideAnyRoot(current, roots)) throw outsideError(shown, path.join(current, name));
  return { parent: current, name };
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function realpathOrRefuse(p: string, shown: string): string {
  try {
    return fs.realpathSync.native(p);
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
export function openConfinedForWrite(
  p: string,
  ctx: ToolContext,
  opts: { mustExist: boolean; /** Test seam: runs between the path checks and the open (where a swap would strike). */ beforeOpen?: () => void },
): WritableFile {
  const roots = allowedRoots(ctx);
  const abs = toAbsolute(p, ctx.projectRoot);
  const { parent, name } = resolveParent(abs, p, roots, !opts.mustExist);
  let target = path.join(parent, name);
  const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  const base = O_RDWR | O_NOFOLLOW | O_NONBLOCK;
  const st = lstatOrNull(target);
  if (st?.isSymbolicLink()) {
    const real = realpathOrRefuse(target, p);
    if (!insideAnyRoot(real, roots)) throw outsideError(p, real);
    target = real;
  }
  opts.beforeOpen?.();
  let fd: number;
  let created = false;
  try {
    if (opts.mustExist) {
      fd = fs.openSync(target, base);
    } else {
      try {
        fd = fs.openSync(target, base | O_CREAT | O_EXCL, 0o666);
        created = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        fd = fs.openSync(target, base);
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
    realPath = fdRealPath(fd, target);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  const refusal = !insideAnyRoot(realPath, roots)
    ? outsideError(p, realPath)
    : protectedWriteTargets(ctx).some((prot) => isInside(realPath, prot))
      ? protectedError(p, realPath)
      : null;
  if (refusal !== null) {
    fs.closeSync(fd);
    if (created) removeQuietly(realPath); // the empty file this open just created, where it really is
    throw refusal;
  }
  const size = requireRegularFile(fd, p);
  return { fd, realPath, size, created };
}

function removeQuietly(p: string): void {
  try {
    fs.unlinkSync(p);
  } catch {
    // best effort: the empty file we created where we must not write
  }
}
