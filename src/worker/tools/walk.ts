import type fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { ALWAYS_SKIPPED_DIRS, IgnoreStack, type FolderMarkers } from './gitignore';

export interface WalkEntry {
  /** Path relative to the ignore root (posix separators). */
  rel: string;
  abs: string;
  isSymlink: boolean;
}

/** Order of `rg --sort path`: depth-first, names compared as strings. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares two relative paths in depth-first walk order (segment by segment). */
export function comparePaths(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const c = compareNames(as[i] ?? '', bs[i] ?? '');
    if (c !== 0) return c;
  }
  return as.length - bs.length;
}

/**
 * Walks the non-ignored files below `startAbs` in sorted depth-first order. Symlinked folders are never
 * entered (no loops, no escape); symlinks themselves are reported with `isSymlink`. `visit` returns false to stop.
 * `ignoreRoot` is the folder whose .gitignore is the top one (the project root or additional directory).
 *
 * Asynchronous, one folder listing at a time, so the worker keeps answering heartbeats and cancels during a walk
 * of any size; an aborted `signal` stops it with the signal's reason. Written here rather than taken from a
 * crawler library (fdir, @nodelib/fs.walk): their exclude callbacks are synchronous, and a folder's own .gitignore
 * must be read (asynchronously) before deciding which of its children to prune, in ripgrep's sorted order.
 */
export async function walkFiles(
  ignoreRoot: string,
  startAbs: string,
  visit: (entry: WalkEntry) => boolean,
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  const startRel = path.relative(ignoreRoot, startAbs).split(path.sep).join('/');
  const startStack = (await IgnoreStack.forFolder(ignoreRoot, startRel)).exemptingPathTo(startRel);
  const walkDir = async (
    absDir: string,
    relDir: string,
    inherited: IgnoreStack,
    entered: boolean,
  ): Promise<boolean> => {
    signal.throwIfAborted();
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(absDir, { withFileTypes: true });
    } catch {
      return true;
    }
    signal.throwIfAborted();
    const ignores = entered ? inherited : await inherited.enter(absDir, relDir, markersOf(entries));
    entries.sort((x, y) => compareNames(x.name, y.name));
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      const abs = path.join(absDir, entry.name);
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED_DIRS.has(entry.name) || ignores.isIgnored(rel, true)) continue;
        if (!(await walkDir(abs, rel, ignores, false))) return false;
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (ignores.isIgnored(rel, false)) continue;
        if (!visit({ rel, abs, isSymlink: entry.isSymbolicLink() })) return false;
      }
    }
    return true;
  };
  await walkDir(startAbs, startRel, startStack, true);
}

/** What a folder's listing says about its ignore files (no second look at the disk). */
function markersOf(entries: readonly fs.Dirent[]): FolderMarkers {
  return {
    hasGitignore: entries.some((e) => e.name === '.gitignore' && e.isFile()),
    hasGit: entries.some((e) => e.name === '.git'),
  };
}
