import picomatch from 'picomatch';
import { HOST_PATHS, type PathSystem } from '../../../../shared/node/platform-path';
import { resolvePhysicalPath, resolveRealPath } from '../../paths/path-confinement';
import { GLOB_CHARS as GLOB } from '../words/glob-expand';
import type { CommandContext } from '../types';

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
/** A drive's top-level folders on Windows (its root and project ancestors are protected like the others). */
const WINDOWS_SYSTEM_DIRS = ['Windows', 'Program Files', 'Program Files (x86)', 'ProgramData', 'Users'];

const sysOf = (ctx: CommandContext): PathSystem => ctx.sys ?? HOST_PATHS;

function isSystemDir(p: string, sys: PathSystem): boolean {
  const parts = sys.segments(p);
  if (parts.length !== 1) return false;
  const top = sys.nameKey(parts[0] as string);
  const dirs = sys.flavor === 'win32' ? WINDOWS_SYSTEM_DIRS : SYSTEM_DIRS;
  return (sys.flavor === 'posix' && /^lib/.test(top)) || dirs.some((d) => sys.nameKey(d) === top);
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

/** The protected places, in rule form (`/c/Users/alice` on Windows) for the glob test of `protectedTarget`. */
function protectedPlaces(ctx: CommandContext): string[] {
  const sys = sysOf(ctx);
  const places = new Set<string>([sys.root(ctx.projectRoot), ctx.home, sys.resolve(ctx.home)]);
  const projectDrive = sys.root(ctx.projectRoot);
  for (const d of sys.flavor === 'win32' ? WINDOWS_SYSTEM_DIRS : SYSTEM_DIRS) places.add(projectDrive + d);
  let p = ctx.projectRoot;
  for (;;) {
    places.add(p);
    const parent = sys.dirname(p);
    if (parent === p) break;
    p = parent;
  }
  return [...places].map((place) => sys.toRuleForm(place));
}

function isProtectedPath(abs: string, ctx: CommandContext): string | null {
  const sys = sysOf(ctx);
  const norm = sys.resolve(abs);
  if (norm === sys.root(norm)) return 'the root directory';
  if (sys.same(norm, ctx.home)) return 'the home directory';
  if (isSystemDir(norm, sys)) return `the system folder ${norm}`;
  if (sys.isInside(ctx.projectRoot, norm))
    return sys.same(norm, ctx.projectRoot) ? 'the project root' : `${norm}, an ancestor of the project`;
  return null;
}

/** The argument names the project root itself (not an ancestor, not everything in it). */
export function isProjectRootItself(arg: string, ctx: TargetContext): boolean {
  const sys = sysOf(ctx);
  const tilde = shellPath(expandTilde(expandVariables(arg, ctx), ctx), sys);
  if (tilde === 'other-home' || tilde === '' || tilde === null || GLOB.test(tilde)) return false;
  try {
    return sys.same(resolveRealPath(tilde, ctx.cwd ?? ctx.projectRoot, ctx.home, ctx.fs, sys), ctx.projectRoot);
  } catch {
    return false;
  }
}

/** A shell word as a path of this platform (Git Bash's `/c/x` is `C:\x`); null for a folder only the shell knows. */
function shellPath(word: string, sys: PathSystem): string | null {
  return word === 'other-home' ? word : sys.fromShell(word);
}

/** A human description of the protected place the argument hits, or null. */
export function protectedTarget(arg: string, ctx: TargetContext): string | null {
  const sys = sysOf(ctx);
  const tilde = shellPath(expandTilde(expandVariables(arg, ctx), ctx), sys);
  if (tilde === 'other-home') return `another user's home directory (${arg})`;
  // the root or a top folder of the shell's own tree on Windows (`rm -rf /usr`): Git's installation, or its mounts
  if (tilde === null) {
    const word = expandTilde(expandVariables(arg, ctx), ctx);
    return word.split('/').filter((s) => s.length > 0).length <= 1
      ? `${word}, a top folder of the shell's own tree`
      : null;
  }
  if (tilde === '') return null;
  if (GLOB.test(tilde)) {
    // matched in rule form (`/c/x` on Windows), where globs and `/` mean what they mean to the shell
    const absolute = sys.toRuleForm(sys.qualify(ctx.cwd ?? ctx.projectRoot, tilde));
    const back = (form: string): string => (sys.flavor === 'posix' ? form : (sys.fromShell(form) ?? form));
    // `/*`, `~/*`, `dir/.*`: everything in a protected place is as bad as the place
    const everything = /^(.*?)(?:\/(?:\*|\.\*|\*\*|\.\[\^\.\]\*|\{\*,\.\*\}))+\/*$/.exec(
      sys.flavor === 'posix' ? sys.resolve(ctx.cwd ?? ctx.projectRoot, tilde) : absolute,
    );
    if (everything !== null) {
      const hit = isProtectedPath(back((everything[1] as string) || '/'), ctx);
      if (hit !== null) return `everything in ${hit}`;
    }
    const pattern = sys.flavor === 'posix' ? sys.resolve(ctx.cwd ?? ctx.projectRoot, tilde) : absolute;
    const matches = picomatch(pattern.replace(/\/+$/, ''), { dot: true, nocase: sys.foldCase });
    for (const place of protectedPlaces(ctx)) {
      if (matches(place)) return isProtectedPath(back(place), ctx) ?? place;
    }
    return null;
  }
  const lexical = isProtectedPath(sys.resolve(ctx.cwd ?? ctx.projectRoot, tilde), ctx);
  if (lexical !== null) return lexical;
  let real: string;
  let physical: string;
  try {
    real = resolveRealPath(tilde, ctx.cwd ?? ctx.projectRoot, ctx.home, ctx.fs, sys);
    // `link/../x`: the kernel applies `..` after following the link
    physical = resolvePhysicalPath(tilde, ctx.cwd ?? ctx.projectRoot, ctx.home, ctx.fs, sys);
  } catch {
    return `${arg} (a symbolic link loop)`;
  }
  const hit = isProtectedPath(real, ctx) ?? isProtectedPath(physical, ctx);
  return hit === null ? null : `${hit} (through a symbolic link)`;
}
