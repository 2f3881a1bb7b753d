import { lazyOptions } from './command-spec';
import { parseOptions, type OptionSpec } from './options';
import type { SimpleCommand } from '../types';

/**
 * Working-directory options of programs (contract "Assurance: Working-directory options move the judged folder"):
 * `git -C DIR`, `make -C DIR`, `npm --prefix DIR`... The program changes to DIR before it does anything, so the
 * paths it is given, the files it writes and the commands it runs are judged from there: the walker makes DIR the
 * command's `cwd`. A closed table; wrappers (`env -C`, `unshare -w`) are in wrappers.ts, `find -execdir` in
 * invocations.ts. `tar -C` is not here: it applies to the names after it, in order, and the archive's own files
 * are judged with it in program-files-archive.ts.
 */
interface DirectorySpec {
  options: () => OptionSpec;
  /** The option keys (short letter or long name) that change the directory. */
  keys: string[];
  /** Several are relative to each other (`git -C a -C b` is a/b); otherwise the last one wins. */
  cumulative: boolean;
  /** Only options before the first operand count (the subcommand's own `-C` means something else). */
  global?: boolean;
}

const NODE_PM: DirectorySpec = {
  options: lazyOptions(
    `-C= -w= -c= --prefix= --dir= --cwd= --workspace= --filter= --userconfig= --globalconfig= --registry= --cache=
     --loglevel= --call=`,
  ),
  keys: ['C', '--prefix', '--dir', '--cwd'],
  cumulative: false,
};

const SPECS = new Map<string, DirectorySpec>([
  [
    'git',
    {
      options: lazyOptions(
        '-C= -c= --git-dir= --work-tree= --namespace= --config-env= --super-prefix= --exec-path? --list-cmds=',
      ),
      keys: ['C'],
      cumulative: true,
      global: true,
    },
  ],
  [
    'make',
    {
      options: lazyOptions(
        `-C= -f= -I= -o= -W= -E= --directory= --file= --makefile= --include-dir= --old-file= --assume-old= --what-if=
         --new-file= --assume-new= --eval=`,
      ),
      keys: ['C', '--directory'],
      cumulative: true,
    },
  ],
  ['ninja', { options: lazyOptions('-C= -f= -j= -k= -l= -d= -t= -w='), keys: ['C'], cumulative: false }],
  ['npm', NODE_PM],
  ['pnpm', NODE_PM],
  ['yarn', NODE_PM],
  ['bun', NODE_PM],
  ['go', { options: lazyOptions('-C='), keys: ['C'], cumulative: false, global: true }],
  ['cargo', { options: lazyOptions('-C= -Z= --config= --color='), keys: ['C'], cumulative: false, global: true }],
  [
    'uv',
    {
      options: lazyOptions('--directory= --project= --cache-dir= --config-file='),
      keys: ['--directory'],
      cumulative: false,
    },
  ],
  [
    'poetry',
    { options: lazyOptions('-C= --directory= -P= --project='), keys: ['C', '--directory'], cumulative: false },
  ],
  [
    'just',
    {
      options: lazyOptions('-d= -f= --working-directory= --justfile='),
      keys: ['d', '--working-directory'],
      cumulative: false,
    },
  ],
  [
    'patch',
    {
      options: lazyOptions('-d= -i= -o= -p= -r= -B= -D= -F= -V= -Y= -z= --directory= --input= --output='),
      keys: ['d', '--directory'],
      cumulative: false,
    },
  ],
  [
    'rake',
    {
      options: lazyOptions('-C= -f= -I= -r= --directory= --rakefile= --libdir= --require='),
      keys: ['C', '--directory'],
      cumulative: false,
    },
  ],
  [
    'scons',
    { options: lazyOptions('-C= -f= -I= -j= --directory= --file='), keys: ['C', '--directory'], cumulative: true },
  ],
  [
    'gradle',
    {
      options: lazyOptions('-p= -b= -c= --project-dir= --build-file='),
      keys: ['p', '--project-dir'],
      cumulative: false,
    },
  ],
  [
    'hg',
    { options: lazyOptions('-R= --cwd= --repository= --config='), keys: ['--cwd'], cumulative: false, global: true },
  ],
]);
for (const alias of ['gmake', 'bmake']) SPECS.set(alias, SPECS.get('make') as DirectorySpec);
SPECS.set('./gradlew', SPECS.get('gradle') as DirectorySpec);

/** `terraform -chdir=DIR` (one dash, before the subcommand). */
function terraformDirectory(argv: string[]): DirectoryMove[] {
  const out: DirectoryMove[] = [];
  for (let i = 1; i < argv.length && (argv[i] as string).startsWith('-'); i++) {
    const m = /^-{1,2}chdir=(.*)$/.exec(argv[i] as string);
    if (m !== null) out.push({ dir: m[1] as string, index: i });
  }
  return out.slice(-1);
}

/** One move of the working directory: the directory as written, and the argv word it came from. */
export interface DirectoryMove {
  dir: string;
  index: number;
}

/** The directories a program of the table changes to, in order (empty when it stays where it is). */
export function programDirectories(cmd: SimpleCommand): DirectoryMove[] {
  if (cmd.name === 'terraform' || cmd.name === 'tofu') return terraformDirectory(cmd.argv);
  const spec = SPECS.get(cmd.name);
  if (spec === undefined) return [];
  let argv = cmd.argv;
  if (spec.global === true) {
    // only the options before the subcommand: the rest are the subcommand's
    const parsed = parseOptions(argv, spec.options());
    const first = parsed.operands[0];
    if (first !== undefined) argv = argv.slice(0, first.index);
  }
  const parsed = parseOptions(argv, spec.options());
  const moves = spec.keys
    .flatMap((k) => parsed.values.get(k) ?? [])
    .sort((a, b) => a.index - b.index)
    .map((v) => ({ dir: v.value, index: v.index }));
  return spec.cumulative ? moves : moves.slice(-1);
}
