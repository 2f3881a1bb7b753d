import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { readOnlyPathArgs } from '../../../../src/main/core/shell-analysis/read-only/read-only';
import { READ_ONLY } from '../../../../src/main/core/shell-analysis/read-only/read-only-table';
import { READERS } from '../../../../src/main/core/shell-analysis/programs/readers-table';

/**
 * Contract "Assurance: Options": read-only is a closed allow-list. For every program of the read-only set, the
 * smallest read-only use stays read-only, and the same use with one option the table does not list (a long one, a
 * short letter, an abbreviation of a listed long option) is not.
 */
beforeAll(async () => {
  await initShellParser();
});

function ro(command: string): string[] | null {
  const [cmd] = analyzeCommand(command).commands;
  if (cmd === undefined) throw new Error(`no command in ${command}`);
  return readOnlyPathArgs(cmd);
}

/** The operands of a minimal read-only use of each program. */
const BASE: Record<string, string> = {
  grep: 'pat f',
  egrep: 'pat f',
  fgrep: 'pat f',
  rg: 'pat f',
  sed: '-n p f',
  command: '-v ls',
  cmp: 'a b',
  test: '-f x',
  '[': '-f x ]',
  seq: '3',
  sleep: '1',
  uname: '',
  id: '',
  date: '',
  pwd: '',
  nproc: '',
  arch: '',
  whoami: '',
  tr: 'a b',
  type: 'ls',
  which: 'ls',
  basename: 'a/b',
  dirname: 'a/b',
};

/** A letter the program does not accept as a short option. */
function unknownLetter(name: string): string {
  const spec = READ_ONLY.get(name);
  if (spec === undefined) throw new Error(name);
  const o = spec.options;
  return [...'ZQWYjyKkJ'].find((c) => !o.flags.has(c) && !o.shortArg.has(c) && !o.shortOptional.has(c)) as string;
}

describe('every program of the read-only set has a closed list of options', () => {
  for (const [name, spec] of READ_ONLY) {
    if (spec.noOptions === true) {
      it(`${name} takes no options: every word is text (echo -x prints -x)`, () => {
        expect(ro(`${name} -x --anything`)).toEqual([]);
      });
      continue;
    }
    if (spec.expression === true) {
      it(`${name} is an expression: operators are not options, other words are paths`, () => {
        // the grammar reads a bare `[ ... ]` as a test, not a command: reach the program through env
        expect(ro(`env ${name} -d src -a -f ../x ${name === '[' ? ']' : ''}`)).toEqual(['src', '../x']);
      });
      continue;
    }
    if (spec.onlyFlags !== undefined) {
      it(`${name} is read-only only as ${spec.onlyFlags.join(' / ')}`, () => {
        expect(ro(`${name} ${spec.onlyFlags?.[0]}`)).toEqual([]);
        expect(ro(`${name} --inspect x.js`)).toBeNull();
        expect(ro(`${name} ${spec.onlyFlags?.[0]} -e 1`)).toBeNull();
      });
      continue;
    }
    it(`${name}: an option it does not list makes it not read-only`, () => {
      const base = BASE[name] ?? 'f';
      expect(ro(`${name} ${base}`), `${name} ${base}`).not.toBeNull();
      expect(ro(`${name} --zz-not-an-option ${base}`)).toBeNull();
      expect(ro(`${name} -${unknownLetter(name)} ${base}`)).toBeNull();
      const long = [...spec.options.long, ...spec.options.longArg].find((l) => l.length > 6);
      if (long !== undefined)
        expect(ro(`${name} ${long.slice(0, 5)} ${base}`), `${long.slice(0, 5)} abbreviates ${long}`).toBeNull();
    });
  }
});

describe('the option lists are parsed on first use', () => {
  it('every list of the read-only and readers tables parses (a typo would otherwise surface only in a decision)', () => {
    for (const [name, spec] of [...READ_ONLY, ...READERS]) expect(() => spec.options, name).not.toThrow();
    expect(READ_ONLY.get('grep')?.options.longArg.has('--regexp')).toBe(true);
  });
});

describe('git and find have closed lists too', () => {
  const subcommands = [
    'status',
    'diff',
    'log',
    'show',
    'shortlog',
    'blame README.md',
    'rev-parse HEAD',
    'ls-files',
    'ls-tree HEAD',
    'describe',
    'cat-file -t HEAD',
    'branch',
    'tag',
    'remote',
    'stash list',
  ];
  for (const sub of subcommands) {
    it(`git ${sub}`, () => {
      expect(ro(`git ${sub}`)).not.toBeNull();
      expect(ro(`git ${sub} --zz-not-an-option`)).toBeNull();
      expect(ro(`git ${sub} --output=x`)).toBeNull();
    });
  }
  it('git global options: only those that only point git at a folder', () => {
    // `-C DIR` moves the command's working directory, which the engine judges as the place it runs
    expect(ro('git -C src status')).toEqual([]);
    expect(ro('git --no-pager log')).toEqual([]);
    for (const g of ['-c a=b', '--exec-path=x', '-p', '--paginate', '--config-env=a=B', '--zz'])
      expect(ro(`git ${g} status`), g).toBeNull();
  });
  it('git subcommands that change the repository are not read-only', () => {
    for (const c of [
      'git branch -D x',
      'git branch new',
      'git tag v1',
      'git remote add o url',
      'git stash pop',
      'git stash',
      'git push',
      'git checkout .',
    ])
      expect(ro(c), c).toBeNull();
  });
  it('find', () => {
    expect(ro('find src -maxdepth 2 -type f -name "*.ts" -print')).toEqual(['src']);
    expect(ro('find . -newer README.md')).toEqual(['.', 'README.md']);
    for (const a of ['-exec ls ;', '-delete', '-fls x', '-files0-from x', '-follow', '-zz'])
      expect(ro(`find . ${a}`), a).toBeNull();
    expect(ro('find -L .')).toBeNull();
  });
});
