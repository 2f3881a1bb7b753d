import fs from 'node:fs';
import path from 'node:path';
import { ALWAYS_SKIPPED_DIRS, IgnoreStack } from './gitignore';

export interface WalkEntry {
  /** Path relative to the ignore root (posix separators). */
  rel: string;
  abs: string;
  isSymlink: boolean;
}

/** Order of `rg --sort path`: depth-first, names compared as strings. */
export function compareNames(a: string, b: string): number {
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
 */
export function walkFiles(ignoreRoot: string, startAbs: string, visit: (entry: WalkEntry) => boolean, signal?: AbortSignal): void {
  const startRel = path.relative(ignoreRoot, startAbs).split(path.sep).join('/');
  const stack = IgnoreStack.forFolder(ignoreRoot, startRel);
  const walkDir = (absDir: string, relDir: string, ignores: IgnoreStack): boolean => {
    if (signal?.aborted) return false;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absDir, { withFileTypes: true });
    } catch {
      return true;
    }
    entries.sort((x, y) => compareNames(x.name, y.name));
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      const abs = path.join(absDir, entry.name);
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED_DIRS.has(entry.name) || ignores.isIgnored(rel, true)) continue;
        if (!walkDir(abs, rel, ignores.enter(abs, rel))) return false;
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (ignores.isIgnored(rel, false)) continue;
        if (!visit({ rel, abs, isSymlink: entry.isSymbolicLink() })) return false;
      }
    }
    return true;
  };
  walkDir(startAbs, startRel === '' ? '' : startRel, stack);
}
