import fsp from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { FS_CASE, isInsideAny } from '../../shared/node/path-containment';
import { allowedRoots, closeQuietly, displayPath, openConfinedForRead, readWhole, toAbsolute } from './confined-fs';
import { lstatOrNull, resolveParent } from './confined-write';
import { looksBinary, MAX_WHOLE_FILE_BYTES } from './text-file';
import { ToolError } from './tool';
import type { ToolContext, ToolPreview } from './types';

/**
 * The current content of a write target, read without touching the disk; `text` is `null` when it does not exist
 * yet. `unpreviewable`: the target is binary or over the preview limit (`bytes` is its size), so no diff is shown.
 */
export type CurrentContent =
  | { text: string | null; shownPath: string; unpreviewable?: undefined }
  | { text: null; shownPath: string; unpreviewable: 'binary' | 'too-large'; bytes: number };

/**
 * Reads what a write/edit would replace, read-only: no folder is created, nothing is opened for writing.
 * Refuses (throws) when the target lands outside the roots; a binary or too large target is reported, not read.
 */
export async function readCurrentForPreview(p: string, ctx: ToolContext): Promise<CurrentContent> {
  const roots = await allowedRoots(ctx);
  const abs = toAbsolute(p, ctx.projectRoot);
  const { parent, name } = await resolveParent(abs, p, roots, false);
  const target = path.join(parent, name);
  const link = await lstatOrNull(target);
  if (link === null || (link.isSymbolicLink() && !(await exists(target)))) {
    if (link !== null) throw new ToolError(`${p} is a dangling symbolic link; refusing`);
    if (!isInsideAny(parent, roots, FS_CASE)) throw new ToolError(`${p} is outside the project`);
    return { text: null, shownPath: displayPath(target, ctx.projectRoot) };
  }
  const file = await openConfinedForRead(target, ctx);
  try {
    const shownPath = displayPath(file.realPath, ctx.projectRoot);
    if (file.size > MAX_WHOLE_FILE_BYTES)
      return { text: null, shownPath, unpreviewable: 'too-large', bytes: file.size };
    const buf = await readWhole(file.handle, file.size);
    if (looksBinary(buf)) return { text: null, shownPath, unpreviewable: 'binary', bytes: file.size };
    return { text: buf.toString('utf8'), shownPath };
  } finally {
    await closeQuietly(file.handle);
  }
}

/** Whether a path leads somewhere (symlinks followed), like `fs.existsSync`. */
async function exists(p: string): Promise<boolean> {
  try {
    await fsp.stat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The approval's preview of replacing `current` with `after`: the unified diff, or, when either side cannot be
 * shown (binary target, target or new content over the limit), an `unpreviewable` preview with both sizes.
 */
export function replacementPreview(current: CurrentContent, after: string | null): ToolPreview {
  const newBytes = after === null ? null : Buffer.byteLength(after, 'utf8');
  if (current.unpreviewable || after === null || newBytes === null) {
    return {
      kind: 'unpreviewable',
      path: current.shownPath,
      reason: current.unpreviewable ?? 'too-large',
      currentBytes: current.unpreviewable ? current.bytes : null,
      newBytes,
    };
  }
  if (newBytes > MAX_WHOLE_FILE_BYTES) {
    const currentBytes = current.text === null ? null : Buffer.byteLength(current.text, 'utf8');
    return { kind: 'unpreviewable', path: current.shownPath, reason: 'too-large', currentBytes, newBytes };
  }
  return unifiedDiff(current.shownPath, current.text, after);
}

export function unifiedDiff(shownPath: string, before: string | null, after: string): ToolPreview {
  const oldName = before === null ? '/dev/null' : `a/${shownPath}`;
  const unified = createTwoFilesPatch(oldName, `b/${shownPath}`, before ?? '', after, undefined, undefined, {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY,
  });
  return { kind: 'diff', path: shownPath, unifiedDiff: unified };
}
