import fs from 'node:fs';
import path from 'node:path';
import { CASE_FOLDING_FS, FS_CASE, isInside, relativeInside } from '../../shared/node/path-containment';
import { cachingFs, liveFs, settle, type FsView } from './fs-view';

/**
 * The one function that says where a path really lands: used for file tools, command path arguments and
 * redirect targets alike. `~` is expanded; relative paths are taken from `base`; every existing segment is
 * resolved through symlinks (dangling ones included, by following their target); segments that do not exist
 * yet are appended as written, and a later `..` pops them again.
 */
const MAX_LINKS = 40;

export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~' + path.sep)) return path.join(home, p.slice(2));
  return p;
}

/** Normalises a real path for comparison (case-folded where the filesystem usually is). */
export function comparable(p: string): string {
  return CASE_FOLDING_FS ? p.toLowerCase() : p;
}

function resolveFrom(start: string, rel: string, budget: { links: number }, view: FsView): string {
  let current = start;
  const parts = rel.split(/[\\/]+/).filter((s) => s.length > 0 && s !== '.');
  for (const part of parts) {
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const candidate = path.join(current, part);
    const st = view.lstat(candidate);
    if (st === null) {
      current = candidate; // does not exist (yet): appended as written
      continue;
    }
    if (!st.isSymbolicLink()) {
      current = candidate;
      continue;
    }
    if (--budget.links < 0) throw new Error(`too many levels of symbolic links at ${candidate}`);
    const target = view.readlink(candidate);
    current = path.isAbsolute(target)
      ? resolveFrom(path.parse(target).root, target, budget, view)
      : resolveFrom(current, target, budget, view);
  }
  return current;
}

/** Where `p` (relative to `base`, `~` expanded) really lands on disk. `base` should itself be a real path. */
export function resolveRealPath(p: string, base: string, home: string, view: FsView = liveFs): string {
  const expanded = expandHome(p, home);
  const absolute = path.isAbsolute(expanded) ? expanded : path.join(base, expanded);
  // `base` is already real: when the (lexically normalised) path lies below it, start there instead of
  // re-resolving every one of its segments.
  const below = relativeInside(absolute, base);
  if (below) return resolveFrom(base, below, { links: MAX_LINKS }, view);
  const root = path.parse(absolute).root;
  return resolveFrom(root, absolute.slice(root.length), { links: MAX_LINKS }, view);
}

/**
 * Where a shell would land: like resolveRealPath, but `..` is applied after the symlink before it is followed
 * (`link/..` is the link target's parent), as the kernel does for a command's arguments.
 */
export function resolvePhysicalPath(p: string, base: string, home: string, view: FsView = liveFs): string {
  const expanded = expandHome(p, home);
  if (path.isAbsolute(expanded)) {
    const root = path.parse(expanded).root;
    return resolveFrom(root, expanded.slice(root.length), { links: MAX_LINKS }, view);
  }
  return resolveFrom(base, expanded, { links: MAX_LINKS }, view);
}

/** Real path of an existing directory (project roots, additional directories). Falls back to resolveRealPath. */
export function realDir(dir: string, home: string): string {
  try {
    return fs.realpathSync.native(expandHome(dir, home));
  } catch {
    return resolveRealPath(dir, process.cwd(), home);
  }
}

/** `realDir` without blocking: `realpath` with fs.promises; the same fallback for a folder that is not there. */
export async function realDirAsync(dir: string, home: string): Promise<string> {
  try {
    return await fs.promises.realpath(expandHome(dir, home));
  } catch {
    return settle((view) => resolveRealPath(dir, '/', home, view)).catch(() => path.resolve(expandHome(dir, home)));
  }
}

export interface ConfinementVerdict {
  /** Where the path really lands. */
  real: string;
  /** The allowed root it lies in, or null when it lies outside all of them. */
  root: string | null;
}

/** The project root and the additional directories: the only places file tools may touch. */
export class PathConfinement {
  readonly roots: readonly string[];
  constructor(
    readonly projectRoot: string,
    additionalDirectories: readonly string[],
    readonly home: string,
    /** How the disk is looked at (see fs-view.ts). */
    readonly fs: FsView = liveFs,
  ) {
    this.roots = [projectRoot, ...additionalDirectories];
  }

  /**
   * The same confinement, remembering each segment's lstat: for a batch of calls judged at one moment (the files
   * of a search share their folders). Not for single calls, which must see the disk as it is now.
   */
  forBatch(): PathConfinement {
    return this.withFs(cachingFs(this.fs));
  }

  /** The same confinement looking at the disk through `view`. */
  withFs(view: FsView): PathConfinement {
    return new PathConfinement(this.projectRoot, this.roots.slice(1), this.home, view);
  }

  /** True when the real path `real` is an existing directory (seen through this confinement's lstat). */
  isDirectory(real: string): boolean {
    return this.fs.lstat(real)?.isDirectory() === true;
  }

  judge(p: string): ConfinementVerdict {
    const real = resolveRealPath(p, this.projectRoot, this.home, this.fs);
    const root = this.roots.find((r) => isInside(real, r, FS_CASE)) ?? null;
    return { real, root };
  }
}
