import type { TablePaths } from '../programs/command-spec';
import type { SimpleCommand } from '../types';

/**
 * `find` as a read-only command: a closed list of options, tests and actions (contract "Assurance"). Actions that
 * run programs or write files (`-exec`, `-execdir`, `-ok`, `-okdir`, `-delete`, `-fprint*`, `-fls`), reading file
 * names from a file (`-files0-from`) and following symlinks (`-L`, `-follow`) are not listed. The files named by
 * `-newer`, `-samefile` and the like are paths to confine, like the starting points.
 */
const LEADING = /^-(H|P|O\d*)$/;
/** Words that take no argument. */
const NULLARY = new Set([
  '-print',
  '-print0',
  '-ls',
  '-prune',
  '-quit',
  '-true',
  '-false',
  '-empty',
  '-readable',
  '-writable',
  '-executable',
  '-nouser',
  '-nogroup',
  '-depth',
  '-d',
  '-mount',
  '-xdev',
  '-noleaf',
  '-ignore_readdir_race',
  '-noignore_readdir_race',
  '-daystart',
  '-warn',
  '-nowarn',
  '-not',
  '-a',
  '-and',
  '-o',
  '-or',
  '!',
  '(',
  ')',
  ',',
  '-help',
  '--help',
  '-version',
  '--version',
]);
/** Tests and options that take one argument that is not a path. */
const UNARY = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-lname',
  '-ilname',
  '-type',
  '-xtype',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-used',
  '-size',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-perm',
  '-links',
  '-inum',
  '-fstype',
  '-context',
  '-maxdepth',
  '-mindepth',
  '-regextype',
  '-printf',
]);
/** Tests whose argument is a file: confined like the starting points. */
const FILE_ARG = new Set(['-newer', '-anewer', '-cnewer', '-samefile']);
const NEWER_XY = /^-newer[aBcmt][aBcmt]$/;

/**
 * The starting points and file arguments, or null when some word is not in the closed list. The starting points
 * take any number of words; the file a `-newer` names is one.
 */
export function findReadOnlyPaths(cmd: SimpleCommand): TablePaths | null {
  const argv = cmd.argv;
  let i = 1;
  while (i < argv.length && LEADING.test(argv[i] as string)) i++;
  if (argv[i] === '-D') return null; // debug options: not needed to look at files
  const paths: { value: string; index: number }[] = [];
  while (i < argv.length && !/^[-(!]/.test(argv[i] as string)) paths.push({ value: argv[i] as string, index: i++ });
  const variadic = new Set(paths.map((p) => p.index));
  for (; i < argv.length; i++) {
    const a = argv[i] as string;
    if (NULLARY.has(a)) continue;
    if (UNARY.has(a)) {
      if (++i >= argv.length) return null;
      continue;
    }
    if (FILE_ARG.has(a) || NEWER_XY.test(a)) {
      const value = argv[++i];
      if (value === undefined) return null;
      // `-newerXt TIMESTAMP` compares with a time, not a file
      if (!/^-newer.t$/.test(a)) paths.push({ value, index: i });
      continue;
    }
    return null;
  }
  return { paths, variadic };
}
