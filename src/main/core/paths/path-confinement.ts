import { HOST_PATHS, type PathSystem } from '../../../shared/node/platform-path';
import { nodeDisk, PrefetchedFs, settle, type EngineDisk, type FsView } from './fs-view';

/**
 * The one function that says where a path really lands: used for file tools, command path arguments and
 * redirect targets alike. `~` is expanded; relative paths are taken from `base`; every existing segment is
 * resolved through symlinks (dangling ones included, by following their target); segments that do not exist
 * yet are appended as written, and a later `..` pops them again. Paths are spelled and compared as `sys` says
 * (platform-path.ts): POSIX or Windows, case folded where the volume folds case.
 */
const MAX_LINKS = 40;

export function expandHome(p: string, home: string, sys: PathSystem = HOST_PATHS): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~' + sys.sep)) return sys.join(home, p.slice(2));
  return p;
}

function resolveFrom(start: string, rel: string, budget: { links: number }, view: FsView, sys: PathSystem): string {
  let current = start;
  for (const part of sys.walkNames(rel)) {
    if (part === '..') {
      current = sys.dirname(current);
      continue;
    }
    const candidate = sys.join(current, part);
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
    if (sys.isRelative(target)) current = resolveFrom(current, target, budget, view, sys);
    else {
      const absolute = sys.qualify(current, target);
      const root = sys.root(absolute);
      current = resolveFrom(root, absolute.slice(root.length), budget, view, sys);
    }
  }
  return current;
}

/** `p` with `~` expanded, made absolute from `base`, `..` applied lexically. */
function absoluteFrom(p: string, base: string, home: string, sys: PathSystem): string {
  const expanded = expandHome(p, home, sys);
  if (sys.flavor === 'posix') return sys.isAbsolute(expanded) ? expanded : sys.join(base, expanded);
  return sys.resolve(base, expanded);
}

/** Where `p` (relative to `base`, `~` expanded) really lands on disk. `base` should itself be a real path. */
export function resolveRealPath(
  p: string,
  base: string,
  home: string,
  view: FsView,
  sys: PathSystem = HOST_PATHS,
): string {
  const absolute = absoluteFrom(p, base, home, sys);
  // `base` is already real: when the (lexically normalised) path lies below it, start there instead of
  // re-resolving every one of its segments.
  const below = sys.relativeInside(absolute, base);
  if (below) return resolveFrom(base, below, { links: MAX_LINKS }, view, sys);
  const root = sys.root(absolute);
  return resolveFrom(root, absolute.slice(root.length), { links: MAX_LINKS }, view, sys);
}

/**
 * Where a shell would land: like resolveRealPath, but `..` is applied after the symlink before it is followed
 * (`link/..` is the link target's parent), as the kernel does for a command's arguments.
 */
export function resolvePhysicalPath(
  p: string,
  base: string,
  home: string,
  view: FsView,
  sys: PathSystem = HOST_PATHS,
): string {
  const expanded = expandHome(p, home, sys);
  if (!sys.isRelative(expanded)) {
    const absolute = sys.qualify(base, expanded);
    const root = sys.root(absolute);
    return resolveFrom(root, absolute.slice(root.length), { links: MAX_LINKS }, view, sys);
  }
  return resolveFrom(base, expanded, { links: MAX_LINKS }, view, sys);
}

/** Where a folder named on its own (not from the project) is resolved from: its root, or this process's folder. */
function ownBase(expanded: string, sys: PathSystem): string {
  return sys.isRelative(expanded) ? process.cwd() : sys.root(expanded);
}

/**
 * Real path of an existing directory (project roots, additional directories), without blocking; a folder that is not
 * there falls back to resolveRealPath.
 */
export async function realDir(
  dir: string,
  home: string,
  sys: PathSystem = HOST_PATHS,
  disk: EngineDisk = nodeDisk,
): Promise<string> {
  const expanded = expandHome(dir, home, sys);
  try {
    return sys.normalize(await disk.realpath(expanded));
  } catch {
    return settle(
      (view) => resolveRealPath(dir, ownBase(expanded, sys), home, view, sys),
      new PrefetchedFs(disk, sys),
    ).catch(() => sys.normalize(expanded));
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
    readonly fs: FsView,
    /** How paths are spelled and compared (see platform-path.ts). */
    readonly sys: PathSystem = HOST_PATHS,
  ) {
    this.roots = [projectRoot, ...additionalDirectories];
  }

  /** The same confinement looking at the disk through `view`. */
  withFs(view: FsView): PathConfinement {
    return new PathConfinement(this.projectRoot, this.roots.slice(1), this.home, view, this.sys);
  }

  /** True when the real path `real` is an existing directory (seen through this confinement's lstat). */
  isDirectory(real: string): boolean {
    return this.fs.lstat(real)?.isDirectory() === true;
  }

  judge(p: string): ConfinementVerdict {
    const real = resolveRealPath(p, this.projectRoot, this.home, this.fs, this.sys);
    const root = this.roots.find((r) => this.sys.isInside(real, r)) ?? null;
    return { real, root };
  }
}
