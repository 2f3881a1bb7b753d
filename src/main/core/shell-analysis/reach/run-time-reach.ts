/**
 * One entry of the run-time write table (run-time-writes.ts): a folder a command writes files into that only the run
 * decides, and the helpers its entries share.
 */

/**
 * - `below`: the path and everything under it.
 * - `into`: `value/name` when `value` is an existing folder (`cp -r src dist` writes dist/src), else `value`.
 * - `work-tree`: the top folder of the repository (`marker` found walking up from `value`) and everything under it.
 * - `git-config` / `git-hooks`: the config file / hooks folder of the git repository holding `value`.
 */
type ReachScope = 'below' | 'into' | 'work-tree' | 'git-config' | 'git-hooks';

export interface RunTimeReach {
  /** The path as written, relative to where the command runs ('.': its working directory; '/': anywhere). */
  value: string;
  /** The argv word it came from (to tell whether the shell expands it), or -1 for a name made up here. */
  index: number;
  scope: ReachScope;
  /** With `into`: the name the copy gets inside the folder. */
  name?: string;
  /** With `work-tree`: the folder that marks a repository's top (`.git` when absent). */
  marker?: string;
  /** What the program does there, for the person: "tar -x writes the archive's files". */
  why: string;
  /** False when the program does not write through symbolic links it finds there (default: it may). */
  followsLinks?: boolean;
}

export const below = (value: string, index: number, why: string): RunTimeReach => ({
  value,
  index,
  scope: 'below',
  why,
});
export const ANYWHERE = (why: string): RunTimeReach => below('/', -1, why);

/** `--name` given as any unambiguous GNU prefix of `full` (at least `min` letters after the dashes). */
export function longPrefix(word: string, full: string, min: number): boolean {
  const name = word.split('=')[0] as string;
  return name.length >= 2 + min && full.startsWith(name);
}

/** The value of an option at argv[i] (`-Cdir`, `-C dir`, `--directory=dir`, `--directory dir`), and how many words it took. */
export function optionValue(
  argv: readonly string[],
  i: number,
  short: boolean,
): { value: string; index: number; used: number } | null {
  const a = argv[i] as string;
  if (!short && a.includes('=')) return { value: a.slice(a.indexOf('=') + 1), index: i, used: 1 };
  if (short && a.length > 2) return { value: a.slice(2), index: i, used: 1 };
  const next = argv[i + 1];
  return next === undefined ? null : { value: next, index: i + 1, used: 2 };
}
