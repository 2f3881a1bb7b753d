import fs from 'node:fs';
import picomatch from 'picomatch';
import { HOST_PATHS, type PathSystem } from '../../../../shared/node/platform-path';
import { expandHome } from '../../paths/path-confinement';
import type { CommandContext } from '../types';
import type { FsView } from '../../paths/fs-view';

/**
 * Expands a glob argument (`src/*.ts`, `doc?/**`) against the file system, so each file it can reach is judged
 * by where it really lands (a match may be a symlink pointing out of the project). The result is a superset of
 * what bash would match whatever its options: dot files, any case, and `**` recursing (without following
 * symlinked directories: the link itself is returned and judged). Null when the word cannot be expanded
 * statically (`$X*`, `~user/*`, extglob) or would expand to too much.
 */
export const GLOB_CHARS = /[*?[]/;
const EXTGLOB = /[?*+@!]\(/;
const MAX_MATCHES = 1000;
const MAX_DIRECTORY_READS = 500;

interface Candidate {
  shown: string;
  real: string;
}

interface Budget {
  reads: number;
  fs: FsView;
  sys: PathSystem;
}

function readDir(dir: string, budget: Budget): fs.Dirent[] | null {
  if (--budget.reads < 0) return null;
  return budget.fs.readdir(dir) ?? [];
}

function join(shown: string, name: string): string {
  if (shown === '') return name;
  return shown.endsWith('/') ? shown + name : `${shown}/${name}`;
}

/** Every directory below `c` (not through symlinks), `c` included: what a `**` segment can stand for. */
function descend(c: Candidate, budget: Budget, out: Candidate[]): boolean {
  out.push(c);
  if (out.length > MAX_MATCHES) return false;
  const entries = readDir(c.real, budget);
  if (entries === null) return false;
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    if (!descend({ shown: join(c.shown, e.name), real: budget.sys.join(c.real, e.name) }, budget, out)) return false;
  }
  return true;
}

function matchSegment(candidates: Candidate[], segment: string, budget: Budget): Candidate[] | null {
  const out: Candidate[] = [];
  if (segment === '**') {
    for (const c of candidates) {
      const dirs: Candidate[] = [];
      if (!descend(c, budget, dirs)) return null;
      for (const d of dirs) {
        const entries = readDir(d.real, budget);
        if (entries === null) return null;
        out.push(d, ...entries.map((e) => ({ shown: join(d.shown, e.name), real: budget.sys.join(d.real, e.name) })));
      }
      if (out.length > MAX_MATCHES) return null;
    }
    return out;
  }
  const matches = picomatch(segment, { dot: true, nocase: true, nobrace: true, noextglob: true });
  for (const c of candidates) {
    const entries = readDir(c.real, budget);
    if (entries === null) return null;
    for (const e of entries) {
      if (matches(e.name)) out.push({ shown: join(c.shown, e.name), real: budget.sys.join(c.real, e.name) });
    }
    if (out.length > MAX_MATCHES) return null;
  }
  return out;
}

export function isExpandableGlob(arg: string): boolean {
  return GLOB_CHARS.test(arg) && !/[$`]/.test(arg) && !/^~[^/]/.test(arg) && !EXTGLOB.test(arg);
}

/** The paths a glob argument can reach (as written, relative or absolute); the glob itself when nothing matches. */
export function expandGlobArg(arg: string, ctx: CommandContext): string[] | null {
  if (!isExpandableGlob(arg)) return null;
  const sys = ctx.sys ?? HOST_PATHS;
  // on Windows a word of the shell's own tree (`/tmp/*`) names folders only the shell knows
  const expanded = sys.fromShell(expandHome(arg, ctx.home, sys));
  if (expanded === null) return null;
  const root = sys.isRelative(expanded) ? '' : sys.root(sys.qualify(ctx.projectRoot, expanded));
  let candidates: Candidate[] = [{ shown: root.replace(/\\/g, '/'), real: root === '' ? ctx.projectRoot : root }];
  const budget: Budget = { reads: MAX_DIRECTORY_READS, fs: ctx.fs, sys };
  const rest = root === '' ? expanded : sys.qualify(ctx.projectRoot, expanded).slice(root.length);
  const segments = rest.split(sys.flavor === 'win32' ? /[\\/]/ : '/').filter((s) => s.length > 0);
  for (const segment of segments) {
    if (GLOB_CHARS.test(segment)) {
      const next = matchSegment(candidates, segment, budget);
      if (next === null) return null;
      candidates = next;
    } else {
      candidates = candidates.map((c) => ({ shown: join(c.shown, segment), real: sys.join(c.real, segment) }));
    }
    if (candidates.length === 0) return [arg];
  }
  return candidates.map((c) => c.shown);
}
