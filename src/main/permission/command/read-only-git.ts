import { parseOptions, type OptionSpec } from './options';
import type { SimpleCommand } from './types';

/**
 * `git` is read-only for the subcommands that only look (status, diff, log, show, branch listing, rev-parse,
 * ls-files, blame...). `-c` (configuration can name programs to run), `--exec-path` and output-to-file options
 * are refused. Every operand after the subcommand is returned as a path to confine: revisions are relative
 * names that land inside the project, and `git diff /a /b` really reads those files.
 */
const SUBCOMMANDS = new Set(['status', 'diff', 'log', 'show', 'branch', 'rev-parse', 'ls-files', 'ls-tree', 'blame', 'describe', 'shortlog', 'cat-file', 'remote', 'tag', 'stash']);
const UNSAFE_LONG = ['--output', '--ext-diff', '--exec-path', '--upload-pack', '--open-files-in-pager'];
const BRANCH_LIST_FLAGS = /^(-[arvl]+|-vv|--all|--remotes|--verbose|--list|--show-current|--merged|--no-merged|--contains|--no-contains|--sort=.*|--format=.*|--color(=.*)?|--no-color|--column(=.*)?|--no-column|--points-at|--ignore-case|--abbrev=.*|--no-abbrev)$/;

function globalOptions(argv: string[]): { sub: number; paths: { value: string; index: number }[] } | null {
  const paths: { value: string; index: number }[] = [];
  let i = 1;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (!a.startsWith('-')) break;
    if (a === '-c' || a.startsWith('--config-env') || a.startsWith('--exec-path') || a === '--paginate' || a === '-p') return null;
    if (a === '-C') {
      const dir = argv[i + 1];
      if (dir === undefined) return null;
      paths.push({ value: dir, index: i + 1 });
      i += 2;
      continue;
    }
    const eq = /^--(git-dir|work-tree|namespace)=(.*)$/.exec(a);
    if (eq !== null) {
      if (eq[1] !== 'namespace') paths.push({ value: eq[2] as string, index: i });
      i++;
      continue;
    }
    if (/^--(git-dir|work-tree|namespace)$/.test(a)) {
      const v = argv[i + 1];
      if (v === undefined) return null;
      if (a !== '--namespace') paths.push({ value: v, index: i + 1 });
      i += 2;
      continue;
    }
    if (/^--(no-pager|no-replace-objects|bare|literal-pathspecs|no-optional-locks|glob-pathspecs|noglob-pathspecs|icase-pathspecs)$/.test(a)) {
      i++;
      continue;
    }
    return null;
  }
  return { sub: i, paths };
}

function subcommandAllowed(sub: string, rest: string[]): boolean {
  switch (sub) {
    case 'branch':
      return rest.every((a) => BRANCH_LIST_FLAGS.test(a)) || (rest.some((a) => a === '--list' || /^-[a-z]*l/.test(a)) && rest.every((a) => !a.startsWith('-') || BRANCH_LIST_FLAGS.test(a)));
    case 'remote':
      return rest.every((a) => a === '-v' || a === '--verbose');
    case 'tag':
      return rest.length === 0 || rest.every((a) => /^(-l|--list|-n\d*|--sort=.*|--contains|--points-at|--merged|--no-merged)$/.test(a) || (!a.startsWith('-') && rest.includes('-l')) || (!a.startsWith('-') && rest.includes('--list')));
    case 'stash':
      return rest[0] === 'list' || rest[0] === 'show';
    default:
      return true;
  }
}

export function gitReadOnlyPaths(cmd: SimpleCommand): { value: string; index: number }[] | null {
  const argv = cmd.argv;
  if (argv.length === 2 && (argv[1] === '--version' || argv[1] === 'version')) return [];
  const g = globalOptions(argv);
  if (g === null) return null;
  const sub = argv[g.sub];
  if (sub === undefined || !SUBCOMMANDS.has(sub)) return null;
  const rest = argv.slice(g.sub + 1);
  if (!subcommandAllowed(sub, rest)) return null;
  const parsed = parseOptions(argv, { unsafeLong: UNSAFE_LONG } as OptionSpec, g.sub + 1);
  if (parsed.unsafe) return null;
  const listing = sub === 'branch' || sub === 'tag' || sub === 'remote' || sub === 'stash';
  return [...g.paths, ...(listing ? [] : parsed.operands)];
}
