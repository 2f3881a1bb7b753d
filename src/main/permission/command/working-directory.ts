import path from 'node:path';
import type { SimpleCommand } from './types';

/**
 * Follows literal `cd`/`pushd` so later relative paths are judged where they really are (`cd / && rm -rf etc`).
 * The directory is kept as written: '' is the project root, a relative path is relative to it, an absolute or
 * `~` path stands alone; null once it went somewhere we cannot know.
 */
export function directoryAfter(current: string | null, cmd: SimpleCommand): string | null {
  if (cmd.name === 'popd') return null;
  if (cmd.name !== 'cd' && cmd.name !== 'pushd') return current;
  let i = 1;
  while (i < cmd.argv.length && /^-[LPe@]+$/.test(cmd.argv[i] as string)) i++;
  if (cmd.argv[i] === '--') i++;
  const target = cmd.argv[i];
  if (target === undefined) return cmd.name === 'cd' ? '~' : null;
  if (target === '-' || cmd.argvDynamic?.[i] === true || /^[+-]\d+$/.test(target)) return null;
  if (current === null) return path.posix.isAbsolute(target) || target === '~' || target.startsWith('~/') ? target : null;
  if (path.posix.isAbsolute(target) || target === '~' || target.startsWith('~/')) return target;
  return current === '' ? target : path.posix.join(current, target);
}
