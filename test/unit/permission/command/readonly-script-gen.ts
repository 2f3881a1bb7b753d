/**
 * Random bash scripts for the read-only differential test, built from pieces that attack the read-only shortcut:
 * read-only programs with random (safe and unsafe) options, paths inside and outside the fixture (`..`, links
 * pointing out, globs, `~` forms, variables, substitutions), `cd`, subshells, lists, pipes, quoting tricks and
 * redirections. Most pieces are harmless, so that a good share of scripts is called read-only and really runs.
 *
 * Constructs the engine gets wrong today are left out with a comment naming the finding in /work/engine-findings.md
 * (see AVOIDED below): the lead re-enables them with the fix.
 */
import fc from 'fast-check';
import { openSets } from './readonly-script-gen-open-sets';

export interface FixturePaths {
  project: string;
  outside: string;
  home: string;
}

/**
 * Open findings in /work/engine-findings.md whose constructs the generator leaves out for now. When the engine is
 * fixed, drop the entry (and its use below) so the construct is generated again.
 */
export const AVOIDED = {
  /** F1 (fixed): bash expands a glob in an operand that is not a path (`echo ../*` lists the folder above the project). */
  globsInTextOperands: false,
  /** F7 (fixed): the grammar joins `a|b|c` NEWLINE `d < f` into one pipeline ending in `c d` (`echo|echo|echo\nrm -rf src < x`). */
  newlineAfterLongPipeline: false,
};
export const AVOIDED_SUMMARY: string[] = [];

/** What the generator needs to know about the engine's read-only set here (the test asks the engine once). */
export interface GenContext {
  fixture: FixturePaths;
  /** Programs of the read-only table installed here. */
  programs: readonly string[];
  /** For each program, the options of OPTION_POOL the engine accepts in a read-only command. */
  safe: ReadonlyMap<string, readonly string[]>;
  /** Programs whose operands are text, not paths (the engine does not judge them: `echo ../x` stays read-only). */
  textOperands: ReadonlySet<string>;
}

const hasGlob = (word: string): boolean => /^[^'"\\]*[*?[]/.test(word);

const pick = <T>(...items: T[]): fc.Arbitrary<T> => fc.constantFrom(...items);

/** Path arguments: inside the project (weighted), outside in its many spellings. */
function paths(f: FixturePaths): fc.Arbitrary<string> {
  const inside = pick(
    'src/a.ts',
    'src',
    './docs/readme.md',
    'sub/deep/file.txt',
    "'my file.txt'",
    'my\\ file.txt',
    'src/*.ts',
    '*.md',
    '.',
    'sub/../src/b.txt',
    'link-in/a.ts',
    '"$PWD/src/a.ts"',
    `${f.project}/notes.md`,
    '~+/notes.md',
    'notes.md',
    's"r"c/a.ts',
    "s'rc'/b.txt",
    "$'src/a.ts'",
    '{src,docs}',
    'src/{a.ts,b.txt}',
    'sub/deep',
    '-- -n',
    '"$(echo src/a.ts)"',
    '`echo notes.md`',
  );
  const outside = pick(
    '../outside/secret.txt',
    'link-out/secret.txt',
    'link-file',
    'link-out',
    'src/../../outside/secret.txt',
    '/etc/hostname',
    '~/.ssh/id_rsa',
    '"$HOME/.bashrc"',
    `${f.outside}/secret.txt`,
    '..',
    'sub/../..',
    '../*',
    'l*',
    '~-',
    '"$OLDPWD"',
    '/proc/self/environ',
    'link-out/../outside/secret.txt',
    `${f.home}/.ssh`,
    '.?/*',
    '"$(echo ..)"',
    '~root',
    '$x/../..',
  );
  return fc.oneof({ weight: 4, arbitrary: inside }, { weight: 1, arbitrary: outside });
}

/** Options any program may be given (safe ones, unknown ones, ones that write, run programs or follow links). */
export const OPTION_POOL = [
  '-n',
  '-l',
  '-a',
  '-r',
  '-R',
  '-L',
  '-i',
  '-v',
  '-c',
  '-s',
  '-1',
  '-h',
  '-H',
  '-q',
  '-w',
  '-x',
  '-E',
  '-F',
  '-0',
  '-z',
  '-p',
  '-t',
  '-u',
  '--help',
  '--version',
  '--color=never',
  '-la',
  '-lh',
  '-rn',
  '-n 3',
  '-c 10',
  '-o out.txt',
  '--output=out.txt',
  '-f src/a.ts',
  '-f ../outside/secret.txt',
  '--files-from=src/b.txt',
  '--pre=cat',
  '--follow',
  '-e p',
  '--include=*.ts',
  '-d skip',
  '-k1',
  '-T /tmp',
  '--',
  '-w out',
  '-Q',
  '--search-zip',
  '-X',
  '--files0-from=src/b.txt',
  '-b',
  '-e',
  '-C 1',
  '-m 1',
  '-I',
  '-S',
  '-A 1',
  '-B 1',
  '-g *.ts',
  '--hidden',
  '--no-ignore',
  '-j 1',
  '-k 2',
  '-d ,',
  '-f 1',
  '-N',
  '--max-depth=1',
  '-P',
  '-Z',
  '-U',
  '-D',
  '-g',
  '-G',
  '-s 1',
  '-o',
  '-t x',
  '-T',
  '-V',
  '-W',
  '-y',
  '-K',
  '-C',
  '-m src/a.ts',
  '--long',
  '--all',
];

/** Arguments that make sense only to one program (its script, pattern, format or expression). */
const SPECIFIC: Record<string, string[]> = {
  grep: ['x', 'export', '-e x', '-rn export', '-R x'],
  rg: ['x', 'export', '--files', '-z x', '--pre cat x', '-L x', '--hostname-bin=id x'],
  sed: ["-n 'p'", "-n '1,2p'", "'w out.txt'", "-n 'e ls'", '-n -e 1p', "-n '1w out.txt'", '-i s/a/b/'],
  find: [
    ". -name '*.ts'",
    '. -maxdepth 1',
    '. -type f',
    '-L .',
    '. -exec cat {} \\;',
    '. -delete',
    '. -fprint out.txt',
    '. -newer src/a.ts',
    '. -ok cat {} \\;',
  ],
  head: ['-n 2', '-c 5'],
  tail: ['-n 2', '-c 5'],
  cut: ['-d: -f1', '-c1-3'],
  tr: ["'a-z' 'A-Z'", 'a b'],
  echo: ['hello', '"$(cat ../outside/secret.txt)"', "'$(id)'", '$((1+1))', '${HOME}'],
  printf: ["'%s\\n' x", '-v PATH ./bin', '\'%s\' "$(pwd)"'],
  seq: ['3', '1 2 5'],
  date: ['+%s', '-r src/a.ts', '-f ../outside/secret.txt', '-s 2020-01-01'],
  stat: ['-c %s'],
  sort: ['-o out.txt', '-r', '--compress-program=cat'],
  diff: ['src/a.ts src/b.txt', '--output=out.txt src/a.ts src/b.txt'],
  cmp: ['src/a.ts src/b.txt'],
  test: ['-e'],
  '[': ['-e'],
  command: ['-v', '-V', '-p'],
  less: ['+!id', '-o out.txt'],
  du: ['-s', '--files0-from=src/b.txt'],
  file: ['-b', '-C', '-m src/a.ts'],
  od: ['-c'],
  uniq: ['-c'],
};

/** Mostly options the engine accepts for `program` (so that scripts run), sometimes any of the pool (to attack it). */
function options(program: string, ctx: GenContext): fc.Arbitrary<string[]> {
  const own = ctx.safe.get(program) ?? [];
  const one =
    own.length === 0
      ? pick(...OPTION_POOL)
      : fc.oneof({ weight: 4, arbitrary: pick(...own) }, { weight: 1, arbitrary: pick(...OPTION_POOL) });
  return fc.array(one, { maxLength: 2 });
}

/** One simple command of a program of the read-only table. */
function simpleCommand(ctx: GenContext): fc.Arbitrary<string> {
  const f = ctx.fixture;
  return fc
    .tuple(
      pick(...ctx.programs).chain((program) => fc.tuple(fc.constant(program), options(program, ctx))),
      fc.nat(),
      fc.array(paths(f), { maxLength: 3 }),
      fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: redirection(f) }),
      fc.oneof({ weight: 5, arbitrary: fc.constant('') }, { weight: 1, arbitrary: prefixAssignment(f) }),
      pick('', '', '', '', '', '', '', '/usr/bin/', '/bin/', './', 'bin/', '\\', 'command '),
    )
    .map(([[program, opts], n, args, redirect, assign, spelling]) => {
      const specific = SPECIFIC[program] ?? [];
      const own = specific.length > 0 && n % 3 !== 0 ? [specific[n % specific.length] as string] : [];
      const closing = program === '[' ? [']'] : [];
      const operands =
        AVOIDED.globsInTextOperands && ctx.textOperands.has(program) ? args.filter((a) => !hasGlob(a)) : args;
      return [assign, `${spelling}${program}`, ...own, ...opts, ...operands, ...closing, redirect]
        .filter((w) => w !== '')
        .join(' ');
    });
}

function redirection(f: FixturePaths): fc.Arbitrary<string> {
  return fc.oneof(
    pick(
      '2>/dev/null',
      '>/dev/null',
      '2>&1',
      '>&2',
      '<<< word',
      '> out.txt',
      '>> notes.md',
      '1<>notes.md',
      '&>/dev/null',
      '>/dev/stderr',
    ),
    paths(f).map((p) => `< ${p}`),
  );
}

function prefixAssignment(f: FixturePaths): fc.Arbitrary<string> {
  return fc.oneof(
    pick('LC_ALL=C', 'x=1', 'PATH=./bin:$PATH', 'LD_PRELOAD=./x.so', 'GIT_DIR=..', 'IFS=/'),
    paths(f)
      .filter((p) => !AVOIDED.globsInTextOperands || !/[*?[]/.test(p))
      .map((p) => `x=${p}`),
  );
}

/**
 * Whole scripts that hide where a path lands or which program runs: cwd changes in every construct, variables
 * set in every way bash allows, substitutions, brace and tilde forms, escapes, the fixture's own programs
 * (project/rg, project/bin/ls, sourced project/env.sh) reached by path, PATH or `hash`.
 */
function attacks(list: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const secret = pick(
    '../outside/secret.txt',
    "'..'/outside/secret.txt",
    '".."/outside/secret.txt',
    '\\.\\./outside/secret.txt',
    "$'\\x2e\\x2e'/outside/secret.txt",
    "$'\\056\\056/outside/secret.txt'",
    '{.,x}./outside/secret.txt',
    '{..,src}/outside/secret.txt',
    '~/../outside/secret.txt',
    '~+/../outside/secret.txt',
    '.\\\n./outside/secret.txt',
    'link-out/secret.txt',
    'link-in/../../outside/secret.txt',
  );
  const reader = pick(
    'cat',
    'head',
    'wc',
    'grep x',
    'sha1sum',
    'od -c',
    'tail -n 1',
    'cmp notes.md',
    'diff notes.md',
    'less',
  );
  const hidden = pick(
    'x=..; R "$x/outside/secret.txt"',
    'x=..; R $x/outside/secret.txt',
    'read x <<< ..; R "$x/outside/secret.txt"',
    'printf -v x %s ..; R "$x/outside/secret.txt"',
    'declare x=..; R "$x/outside/secret.txt"',
    'export x=..; R "$x/outside/secret.txt"',
    ': "${x:=..}"; R "$x/outside/secret.txt"',
    'set -- ..; R "$1/outside/secret.txt"',
    'a=(.. src); R "${a[0]}/outside/secret.txt"',
    'R "$(echo ..)/outside/secret.txt"',
    'R $(printf %s ../outside/secret.txt)',
    'R <(cat ../outside/secret.txt)',
    'R < <(cat ../outside/secret.txt)',
    'cd src && R ../../outside/secret.txt',
    'cd .. && R outside/secret.txt',
    'pushd .. && R outside/secret.txt',
    'cd src || cd ..; R outside/secret.txt',
    'CDPATH=.. cd outside && R secret.txt',
    'CDPATH=..; cd outside && R secret.txt',
    'f() { cd ..; }; f; R outside/secret.txt',
    'for d in src ..; do cd "$d"; done; R outside/secret.txt',
    'cd link-out && R secret.txt',
    'cd sub/deep; cd ../../..; R outside/secret.txt',
    'if cd ..; then R outside/secret.txt; fi',
    'while cd ..; do break; done; R outside/secret.txt',
    'cd ~; R .ssh/id_rsa',
    'cd; R .ssh/id_rsa',
    'cd "$HOME"/.ssh && R id_rsa',
    'exec 3< ../outside/secret.txt; R <&3',
    'R 0< link-file',
    'exec R ../outside/secret.txt',
    'IFS=/; x=..//outside//secret.txt; R $x',
    'R ${HOME}/.ssh/id_rsa',
    'R ~root/.bashrc',
    'R /proc/self/cwd/../outside/secret.txt',
    './rg x',
    'bin/ls',
    'PATH=./bin:$PATH ls',
    'PATH=bin ls',
    'export PATH=./bin:$PATH; ls',
    'hash -p ./rg rg; rg x src',
    'hash -p bin/ls ls; ls',
    'source env.sh',
    '. ./env.sh',
    'BASH_ENV=env.sh bash -c ls',
    '$(echo ls) ..',
    'x=ls; $x ..',
    'eval ls ..',
    'command -p cat ../outside/secret.txt',
    '(cd src); R ../outside/secret.txt',
    '(cd sub/deep) && R ../../../outside/secret.txt',
    '(cd link-in); R link-file',
    '/proc/self/cwd/rg x',
    'builtin cd ..; R outside/secret.txt',
    '"cd" ..; R outside/secret.txt',
    'cd -P link-in/..; R outside/secret.txt',
  );
  return fc.oneof(
    fc.tuple(hidden, reader).map(([h, r]) => h.replace(/\bR\b/g, r)),
    fc.tuple(reader, secret).map(([r, p]) => `${r} ${p}`),
    fc.tuple(hidden, reader, list).map(([h, r, l]) => `${l}; ${h.replace(/\bR\b/g, r)}`),
  );
}

/** Scripts: lists and pipelines of simple commands, in subshells, groups, after `cd`, with variables and loops. */
export function scripts(ctx: GenContext): fc.Arbitrary<string> {
  const f = ctx.fixture;
  const simple = simpleCommand(ctx);
  const pipeline = fc.array(simple, { minLength: 1, maxLength: 3 });
  const list = fc
    .tuple(pipeline, fc.array(fc.tuple(pick('; ', ' && ', ' || ', '\n'), pipeline), { maxLength: 2 }))
    .map(([first, rest]) => {
      let out = first.join(' | ');
      let previous = first;
      for (const [op, p] of rest) {
        out += (AVOIDED.newlineAfterLongPipeline && op === '\n' && previous.length >= 3 ? '; ' : op) + p.join(' | ');
        previous = p;
      }
      return out;
    });
  // F1: a variable holding a glob expands it wherever it is used unquoted
  const value = AVOIDED.globsInTextOperands ? paths(f).filter((p) => !/[*?[]/.test(p)) : paths(f);
  const dirs = pick(
    'src',
    'sub/deep',
    '..',
    'link-out',
    '-',
    '~',
    '"$OLDPWD"',
    'sub/../..',
    'link-in',
    's*',
    '/tmp',
    '.',
  );
  return fc.oneof(
    { weight: 4, arbitrary: list },
    { weight: 1, arbitrary: list.map((l) => `( ${l} )`) },
    { weight: 1, arbitrary: list.map((l) => `{ ${l}; }`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(pick('cd', 'pushd'), dirs, pick(' && ', '; ', ' || '), list)
        .map(([cd, d, op, l]) => `${cd} ${d}${op}${l}`),
    },
    { weight: 1, arbitrary: fc.tuple(dirs, list).map(([d, l]) => `(cd ${d}); ${l}`) },
    { weight: 1, arbitrary: fc.tuple(value, list).map(([p, l]) => `x=${p}; ${l.replace(/\bsrc\/a\.ts\b/, '"$x"')}`) },
    { weight: 1, arbitrary: fc.tuple(paths(f), paths(f)).map(([a, b]) => `for f in ${a} ${b}; do cat "$f"; done`) },
    { weight: 1, arbitrary: fc.tuple(paths(f), list).map(([p, l]) => `if test -e ${p}; then ${l}; fi`) },
    { weight: 1, arbitrary: fc.tuple(list, list).map(([a, b]) => `${a} $(${b})`) },
    { weight: 3, arbitrary: attacks(list) },
    { weight: 3, arbitrary: openSets(f, list) },
  );
}
