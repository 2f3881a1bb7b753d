import path from 'node:path';
import type { Cwd, SimpleCommand } from '../types';

/**
 * Follows literal `cd`/`pushd` so later relative paths are judged where they really are (`cd / && rm -rf etc`).
 * The directory is kept as written: '' is the project root, a relative path is relative to it, an absolute or
 * `~` path stands alone; null once it went somewhere we cannot know. A glob target (`cd secre*`) is kept as
 * written: the engine expands it against the disk. Contract "Assurance: Working directory": followed only at top
 * level in a `&&`/`;` sequence (`follow`) and with CDPATH unset.
 */
export function directoryAfter(current: Cwd, cmd: SimpleCommand, opts: { follow: boolean; cdpath: boolean }): Cwd {
  if (cmd.name === 'popd') return null;
  if (cmd.name !== 'cd' && cmd.name !== 'pushd') return current;
  if (!opts.follow) return null;
  let i = 1;
  while (i < cmd.argv.length && /^-[LPe@]+$/.test(cmd.argv[i] as string)) i++;
  if (cmd.argv[i] === '--') i++;
  const target = cmd.argv[i];
  if (target === undefined) return cmd.name === 'cd' ? '~' : null;
  if (cmd.argv.length > i + 1) return null; // `cd a b`: an error in bash, or zsh's substitution form
  if (target === '-' || /^[+-]\d+$/.test(target)) return null;
  if (cmd.argvDynamic?.[i] === true && (/[$`]/.test(target) || /^~./.test(target))) return null;
  const absolute = path.posix.isAbsolute(target) || target === '~' || target.startsWith('~/');
  // with CDPATH set, `cd name` may go to a folder of that name anywhere CDPATH lists
  if (opts.cdpath && !absolute && !/^\.\.?(\/|$)/.test(target)) return null;
  if (absolute) return target;
  if (typeof current !== 'string') return null;
  return current === '' ? target : path.posix.join(current, target);
}

/**
 * The directory a working-directory option moves a program to (`env -C DIR`, `git -C DIR`, `find DIR -execdir`):
 * always followed, since the program itself changes directory (contract "Assurance: Working-directory options").
 * The program calls chdir(2), which resolves `..` after a symbolic link physically: the path is kept as written
 * (`link/..`), never normalised, so the engine judges where the kernel lands. A computed directory is unknown.
 */
export function joinDirectory(current: Cwd, dir: string, dynamic: boolean): Cwd {
  if (dynamic && (/[$`]/.test(dir) || /^~./.test(dir))) return null;
  if (dir === '') return null;
  if (path.posix.isAbsolute(dir) || dir === '~' || dir.startsWith('~/')) return dir;
  if (current === null) return null;
  if (typeof current !== 'string') return { under: `${current.under}/${dir}` };
  return current === '' ? dir : `${current.replace(/\/+$/, '')}/${dir}`;
}
