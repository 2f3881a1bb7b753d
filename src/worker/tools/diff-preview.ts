import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { allowedRoots, displayPath, insideAnyRoot, openConfinedForRead, readWhole, toAbsolute } from './confined-fs';
import { resolveParent } from './confined-write';
import { looksBinary, MAX_WHOLE_FILE_BYTES } from './text-file';
import { ToolError } from './tool';
import type { ToolContext, ToolPreview } from './types';

/** The current content of a write target, read without touching the disk; `null` when it does not exist yet. */
export interface CurrentContent {
  text: string | null;
  shownPath: string;
}

/**
 * Reads what a write/edit would replace, read-only: no folder is created, nothing is opened for writing.
 * Refuses (throws) when the target lands outside the roots, is binary or too large.
 */
export function readCurrentForPreview(p: string, ctx: ToolContext): CurrentContent {
  const roots = allowedRoots(ctx);
  const abs = toAbsolute(p, ctx.projectRoot);
  const { parent, name } = resolveParent(abs, p, roots, false);
  const target = path.join(parent, name);
  if (!fs.existsSync(target)) {
    if (isSymlink(target)) throw new ToolError(`${p} is a dangling symbolic link; refusing`);
    if (!insideAnyRoot(parent, roots)) throw new ToolError(`${p} is outside the project`);
    return { text: null, shownPath: displayPath(target, ctx.projectRoot) };
  }
  const file = openConfinedForRead(target, ctx);
  try {
    if (file.size > MAX_WHOLE_FILE_BYTES) throw new ToolError(`${p} is too large to preview`);
    const buf = readWhole(file.fd, file.size);
    if (looksBinary(buf)) throw new ToolError(`${p} is a binary file`);
    return { text: buf.toString('utf8'), shownPath: displayPath(file.realPath, ctx.projectRoot) };
  } finally {
    fs.closeSync(file.fd);
  }
}

function isSymlink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

export function unifiedDiff(shownPath: string, before: string | null, after: string): ToolPreview {
  const oldName = before === null ? '/dev/null' : `a/${shownPath}`;
  const unified = createTwoFilesPatch(oldName, `b/${shownPath}`, before ?? '', after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
  return { kind: 'diff', path: shownPath, unifiedDiff: unified };
}
