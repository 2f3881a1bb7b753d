import { parseOptions, type ParsedOptions } from './options';
import { programFiles } from './program-files';
import { READERS } from './readers-table';
import type { SimpleCommand } from '../types';

/**
 * Readers of whole trees (contract "Defaults" and "Reads by programs"): `grep -r`, `rg`, `diff` of folders (`-r`,
 * `-N`), and the programs that read a folder to copy or pack it (`tar -c`, `zip -r`, `cp -r`, `rsync -a`, `scp -r`,
 * `7z a`) read every file under their folder operands, so each of those files is judged like a `read_file`: a
 * `Read(.env)` deny or the secret-file defaults apply to `grep -r KEY .` when `.env` is in it. A closed table; what
 * each entry leaves out is only what the program provably skips (`rg` skips hidden files unless told otherwise,
 * `grep --include/--exclude/--exclude-dir`, `rg -g`).
 */
export interface TreeRead {
  /** The operand as written (relative to where the command runs); only a folder is walked. */
  value: string;
  index: number;
  /** Every level below (`-r`), or only the folder's own files (`diff a b`). */
  recursive: boolean;
  /** Names starting with `.` are skipped (rg without `--hidden`). */
  skipHidden: boolean;
  /** Symbolic links to folders are followed while recursing (`grep -R`, `rg -L`, `diff`, `cp -L`...). */
  followLinks: boolean;
  /** Only files whose name (or path below the folder, for a glob with `/`) matches one of these are read. */
  include: string[];
  /** Files matching one of these are not read. */
  exclude: string[];
  /** Folders matching one of these are not entered. */
  excludeDir: string[];
}

type Operand = { value: string; index: number };

const tree = (o: Operand, recursive: boolean, rest: Partial<TreeRead> = {}): TreeRead => ({
  value: o.value,
  index: o.index,
  recursive,
  skipHidden: false,
  followLinks: false,
  include: [],
  exclude: [],
  excludeDir: [],
  ...rest,
});

const values = (p: ParsedOptions, ...keys: string[]): string[] =>
  keys.flatMap((k) => (p.values.get(k) ?? []).map((v) => v.value));

/** Operands after the pattern (unless a pattern was given by option), `-` left out. */
function pathsAfterPattern(parsed: ParsedOptions): Operand[] {
  const ops = parsed.patternByOption ? parsed.operands : parsed.operands.slice(1);
  return ops.filter((o) => o.value !== '-');
}

const shortFlag = (p: ParsedOptions, letter: string): boolean =>
  p.flags.some((f) => /^-[a-zA-Z0-9]+$/.test(f) && f.includes(letter));

function grepReads(cmd: SimpleCommand): TreeRead[] {
  const spec = READERS.get('grep');
  if (spec === undefined) return [];
  const parsed = parseOptions(cmd.argv, spec.options);
  const follow = shortFlag(parsed, 'R') || parsed.seen.has('--dereference-recursive');
  const recursive =
    cmd.name === 'rgrep' ||
    follow ||
    shortFlag(parsed, 'r') ||
    parsed.seen.has('--recursive') ||
    values(parsed, 'd', '--directories').includes('recurse');
  if (!recursive) return [];
  const paths = pathsAfterPattern(parsed);
  const filters = {
    followLinks: follow,
    include: values(parsed, '--include'),
    exclude: values(parsed, '--exclude'),
    excludeDir: values(parsed, '--exclude-dir'),
  };
  return (paths.length > 0 ? paths : [{ value: '.', index: -1 }]).map((o) => tree(o, true, filters));
}

function rgReads(cmd: SimpleCommand): TreeRead[] {
  const spec = READERS.get('rg');
  if (spec === undefined) return [];
  const parsed = parseOptions(cmd.argv, spec.options);
  // names only, or no search at all
  if (['--files', '--type-list', '--version', '--help', '--pcre2-version'].some((f) => parsed.seen.has(f))) return [];
  const unrestricted = parsed.flags.filter((f) => /^-u+$/.test(f)).reduce((n, f) => n + f.length - 1, 0);
  const hidden =
    parsed.seen.has('--hidden') ||
    parsed.seen.has('.') ||
    unrestricted + parsed.flags.filter((f) => f === '--unrestricted').length >= 2;
  const globs = values(parsed, 'g', '--glob', '--iglob');
  const filters = {
    skipHidden: !hidden,
    followLinks: shortFlag(parsed, 'L') || parsed.seen.has('--follow'),
    include: globs.filter((g) => !g.startsWith('!')),
    exclude: globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1)),
  };
  const paths = pathsAfterPattern(parsed);
  return (paths.length > 0 ? paths : [{ value: '.', index: -1 }]).map((o) => tree(o, true, filters));
}

function diffReads(cmd: SimpleCommand): TreeRead[] {
  const spec = READERS.get('diff');
  if (spec === undefined) return [];
  const parsed = parseOptions(cmd.argv, spec.options);
  const recursive = shortFlag(parsed, 'r') || parsed.seen.has('--recursive');
  const filters = {
    followLinks: !parsed.seen.has('--no-dereference'),
    exclude: values(parsed, 'x', '--exclude'),
  };
  const ops = [...parsed.operands, ...parsed.files].filter((o) => o.value !== '-');
  return ops.map((o) => tree(o, recursive, filters));
}

/** Programs reading a folder to copy or pack it: their read operands, walked when they recurse. */
function copyReads(cmd: SimpleCommand): TreeRead[] {
  const flags = cmd.argv.slice(1).filter((a) => a.startsWith('-'));
  const short = (letters: string): boolean =>
    flags.some((f) => /^-[a-zA-Z0-9]+$/.test(f) && [...letters].some((l) => f.includes(l)));
  const long = (...names: string[]): boolean => flags.some((f) => names.includes(f.split('=')[0] as string));
  let recursive: boolean;
  let follow = false;
  switch (cmd.name) {
    case 'tar':
    case 'bsdtar':
    case 'gtar':
      recursive = !long('--no-recursion');
      follow = short('h') || long('--dereference');
      break;
    case 'zip':
      recursive = short('rR') || long('--recurse-paths', '--recurse-patterns');
      follow = !short('y') && !long('--symlinks');
      break;
    case 'cp':
      recursive = short('rRa') || long('--recursive', '--archive');
      follow = short('L') || long('--dereference');
      break;
    case 'rsync':
      recursive = short('ra') || long('--recursive', '--archive');
      follow = short('L') || long('--copy-links');
      break;
    case 'scp':
      recursive = short('r');
      follow = recursive;
      break;
    default:
      return [];
  }
  if (!recursive) return [];
  return programFiles(cmd).reads.map((r) => tree(r, true, { followLinks: follow }));
}

/** 7z/7za `a` and `u`: the files and folders after the archive are packed, recursively. */
function sevenZipReads(cmd: SimpleCommand): TreeRead[] {
  const ops = cmd.argv.map((value, index) => ({ value, index })).filter((o) => o.index > 0 && !o.value.startsWith('-'));
  if (ops[0]?.value !== 'a' && ops[0]?.value !== 'u') return [];
  return ops.slice(2).map((o) => tree(o, true));
}

/** The folders `cmd` reads every file of (walked by the engine; a file operand is judged as itself). */
export function treeReads(cmd: SimpleCommand): TreeRead[] {
  switch (cmd.name) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
    case 'rgrep':
      return grepReads(cmd);
    case 'rg':
      return rgReads(cmd);
    case 'diff':
      return diffReads(cmd);
    case '7z':
    case '7za':
    case '7zr':
    case '7zz':
      return sevenZipReads(cmd);
    default:
      return copyReads(cmd);
  }
}
