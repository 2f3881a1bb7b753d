import path from 'node:path';
import picomatch from 'picomatch';
import { FS_CASE, isInside } from '../../../shared/node/path-containment';
import { comparable, resolvePhysicalPath, resolveRealPath } from '../path-confinement';
import { GLOB_CHARS as GLOB } from './glob-expand';
import type { CommandContext } from './types';

/**
 * Is this argument of a recursive `rm`/`chmod -R`/`find -delete` a place whose loss is a catastrophe: `/`,
 * `/*`, the home directory, a top-level system folder, or the project root or one of its ancestors?
 * Arguments are as written: `~`, `$HOME`/`${HOME}`, `$PWD` are expanded; any other variable or substitution is
 * taken as empty (the classic `rm -rf "$UNSET/"` accident); globs are matched against the protected places.
 */
/** Where the command runs: the project root unless a literal `cd` moved it. */
export interface TargetContext extends CommandContext {
  cwd?: string;
}

const SYSTEM_DIRS = [
  'bin',
  'boot',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'media',
  'mnt',
  'opt',
  'proc',
  'root',
  'run',
  'sbin',
  'snap',
  'srv',
  'sys',
  'tmp',
  'usr',
  'var',
  'nix',
  'System',
  'Library',
  'Applications',
  'Users',
  'Volumes',
  'private',
  'cores',
  'Network',
];

function isSystemDir(p: string): boolean {
  const parts = p.split('/').filter((s) => s.length > 0);
  if (parts.length !== 1) return false;
  const top = comparable(parts[0] as string);
  return /^lib/.test(top) || SYSTEM_DIRS.some((d) => comparable(d) === top);
}

/** Replaces the expansions we can know and drops the ones we cannot. */
function expandVariables(arg: string, ctx: TargetContext): string {
  return arg
    .replace(
      /\$\{(HOME|PWD)(?:[:%#/^,@][^}]*)?\}|\$(HOME|PWD)\b/g,
      (_m, a: string | undefined, b: string | undefined) =>
        (a ?? b) === 'HOME' ? ctx.home : (ctx.cwd ?? ctx.projectRoot),
    )
    .replace(/\$\([^)]*\)|`[^`]*`|\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]/g, '');
}

function expandTilde(arg: string, ctx: TargetContext): string | 'other-home' {
  if (arg === '~' || arg.startsWith('~/')) return ctx.home + arg.slice(1);
  if (arg === '~+' || arg.startsWith('~+/')) return (ctx.cwd ?? ctx.projectRoot) + arg.slice(2);
  if (/^~[A-Za-z0-9_.-]+\/*$/.test(arg) && !arg.startsWith('~-')) return 'other-home';
  return arg;
}

function protectedPlaces(ctx: CommandContext): string[] {
  const places = new Set<string>(['/', ctx.home, path.resolve(ctx.home)]);
  for (const d of SYSTEM_DIRS) places.add('/' + d);
  let p = ctx.projectRoot;
  for (;;) {
    places.add(p);
    const parent = path.dirname(p);
    if (parent === p) break;
    p = parent;
  }
  return [...places];
}

function isProtectedPath(abs: string, ctx: CommandContext): string | null {
  const norm = path.resolve(abs);
  if (norm === '/') return 'the root directory';
  if (comparable(norm) === comparable(path.resolve(ctx.home))) return 'the home directory';
  if (isSystemDir(norm)) return `the system folder ${norm}`;
  if (isInside(ctx.projectRoot, norm, FS_CASE))
    return norm === ctx.projectRoot ? 'the project root' : `${norm}, an ancestor of the project`;
  return null;
}

/** The argument names the project root itself (not an ancestor, not everything in it). */
export function isProjectRootItself(arg: string, ctx: TargetContext): boolean {
  const tilde = expandTilde(expandVariables(arg, ctx), ctx);
  if (tilde === 'other-home' || tilde === '' || GLOB.test(tilde)) return false;
  try {
    return (
      comparable(resolveRealPath(tilde, ctx.cwd ?? ctx.projectRoot, ctx.home, ctx.fs)) === comparable(ctx.projectRoot)
    );
  } catch {
    return false;
  }
}

/** A human description of the protected place the argument hits, or null. */
export function protectedTarget(arg: string, ctx: TargetContext): string | null {
  const tilde = expandTilde(expandVariables(arg, ctx), ctx);
  if (tilde === 'other-home') return `another user's home directory (${arg})`;
  if (tilde === '') return null;
  const absolute = path.resolve(ctx.cwd ?? ctx.projectRoot, tilde);
  if (GLOB.test(tilde)) {
    // `/*`, `~/*`, `dir/.*`: everything in a protected place is as bad as the place
    const everything = /^(.*?)(?:\/(?:\*|\.\*|\*\*|\.\[\^\.\]\*|\{\*,\.\*\}))+\/*$/.exec(absolute);
    if (everything !== null) {
      const hit = isProtectedPath((everything[1] as string) || '/', ctx);
      if (hit !== null) return `everything in ${hit}`;
    }
    const matches = picomatch(absolute.replace(/\/+$/, ''), { dot: true });
    for (const place of protectedPlaces(ctx)) {
      if (matches(place)) return isProtectedPath(place, ctx) ?? place;
    }
    return null;
  }
  const lexical = isProtectedPath(absolute, ctx);
  if (lexical !== null) return lexical;
  let real: string;
  let physical: string;
  try {
    real = resolveRealPath(tilde, ctx.cwd ?? ctx.projectRoot, ctx.home, ctx.fs);
    // `link/../x`: the kernel applies `..` after following the link
    physical = resolvePhysicalPath(tilde, ctx.cwd ?? ctx.projectRoot, ctx.home, ctx.fs);
  } catch {
    return `${arg} (a symbolic link loop)`;
  }
  const hit = isProtectedPath(real, ctx) ?? isProtectedPath(physical, ctx);
  return hit === null ? null : `${hit} (through a symbolic link)`;
}
