import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { readOnlyPathArgs, readPathArgs } from '../../../../src/main/core/shell-analysis/read-only/read-only';

beforeAll(async () => {
  await initShellParser();
});

function ro(command: string): (string[] | null)[] {
  return analyzeCommand(command).commands.map((c) => readOnlyPathArgs(c));
}

function reads(command: string): string[][] {
  return analyzeCommand(command).commands.map((c) => readPathArgs(c));
}

describe('readOnlyPathArgs: the read-only set', () => {
  it('returns the path arguments of listing and reading commands', () => {
    expect(ro('ls -la src')).toEqual([['src']]);
    expect(ro('ls')).toEqual([[]]);
    expect(ro('cat a b -')).toEqual([['a', 'b']]);
    expect(ro('head -n 5 a')).toEqual([['a']]);
    expect(ro('tail -20 -f log')).toEqual([['log']]);
    expect(ro('wc -l a')).toEqual([['a']]);
    expect(ro('stat -c %s f')).toEqual([['f']]);
    expect(ro('du -sh --max-depth 1 .')).toEqual([['.']]);
    expect(ro('tree -L 2 src')).toEqual([['src']]);
    expect(ro('diff -u a b')).toEqual([['a', 'b']]);
    expect(ro('cut -d / -f1 x')).toEqual([['x']]);
    expect(ro('sort -k 2 -t , data.csv')).toEqual([['data.csv']]);
    expect(ro('less /etc/passwd')).toEqual([['/etc/passwd']]);
    expect(ro('realpath ../x')).toEqual([['../x']]);
    expect(ro('[ -f src/a ] && test -d lib')).toEqual([['lib']]); // the grammar reads `[ ]` as a test, not a command
  });

  it('treats the first operand of grep/rg as the pattern unless -e/-f give it', () => {
    expect(ro('grep -rn TODO src')).toEqual([['src']]);
    expect(ro('grep -A 3 -e foo -e bar a b')).toEqual([['a', 'b']]);
    expect(ro('grep -f patterns.txt src')).toEqual([['src', 'patterns.txt']]);
    expect(ro('egrep "a|b" x')).toEqual([['x']]);
    expect(ro('fgrep -- -x y')).toEqual([['y']]);
    expect(ro('rg -n foo src -g "*.ts"')).toEqual([['src']]);
    expect(ro('rg foo')).toEqual([[]]);
  });

  it('returns [] for commands without path arguments', () => {
    for (const c of [
      'echo a /etc/passwd',
      'printf "%s" x',
      'pwd',
      'true',
      'false',
      'which node',
      'whoami',
      'date +%s',
      'basename /a/b',
      'dirname /a/b',
      'tr a-z A-Z',
      'node --version',
      'command -v git',
    ]) {
      expect(ro(c), c).toEqual([[]]);
    }
  });

  it('find: leading paths, and not read-only with actions that run or write', () => {
    expect(ro('find src test -name "*.ts" -type f')).toEqual([['src', 'test']]);
    expect(ro('find -H . -newer x')).toEqual([['.', 'x']]);
    expect(ro('find -L . -newer x')).toEqual([null]); // follows symlinks while recursing
    for (const a of [
      '-exec rm {} ;',
      '-execdir ls ;',
      '-ok rm {} ;',
      '-okdir x ;',
      '-delete',
      '-fprint out',
      '-fprint0 out',
      '-fprintf out %p',
      '-fls out',
    ]) {
      expect(ro(`find . ${a}`)[0], a).toBeNull();
    }
  });

  it('sed only with -n, no -i and a print-only script', () => {
    expect(ro("sed -n '1,10p' f")).toEqual([['f']]);
    expect(ro("sed -n '/start/,/end/p' a b")).toEqual([['a', 'b']]);
    expect(ro("sed -n '$p' f")).toEqual([['f']]);
    expect(ro("sed 's/a/b/' f")).toEqual([null]);
    expect(ro("sed -n -i '1p' f")).toEqual([null]);
    expect(ro("sed -ni '1p' f")).toEqual([null]);
    expect(ro("sed -n '1w out' f")).toEqual([null]);
    expect(ro("sed -n '1e rm -rf /' f")).toEqual([null]);
  });

  it('git: only subcommands that look, without -c or output files', () => {
    expect(ro('git status')).toEqual([[]]);
    expect(ro('git diff HEAD~1 -- src')).toEqual([['HEAD~1', 'src']]);
    expect(ro('git log --oneline -n 5')).toEqual([[]]);
    expect(ro('git show HEAD:README.md')).toEqual([['HEAD:README.md']]);
    expect(ro('git branch')).toEqual([[]]);
    expect(ro('git branch -a -v')).toEqual([[]]);
    expect(ro('git rev-parse HEAD')).toEqual([['HEAD']]);
    expect(ro('git ls-files')).toEqual([[]]);
    expect(ro('git blame f')).toEqual([['f']]);
    expect(ro('git -C ../other status')).toEqual([[]]); // judged as the place it runs (command-facts)
    expect(ro('git --version')).toEqual([[]]);
    for (const c of [
      'git branch newbranch',
      'git branch -D x',
      'git -c color.ui=always log',
      'git log --output=x',
      'git diff --ext-diff',
      'git push',
      'git commit -m x',
      'git checkout .',
      'git stash',
    ]) {
      expect(ro(c), c).toEqual([null]);
    }
  });

  it('is conservative with options that write or run programs', () => {
    for (const c of [
      'sort -o out in',
      'sort --output=out in',
      'sort --compress-program=sh in',
      'sort -T /tmp in',
      'uniq in out',
      'tree -o out .',
      'rg --pre ./x foo',
      'less -o log f',
      "less '+/x' f",
      'date -s now',
      'file -C -m magic',
    ]) {
      expect(ro(c), c).toEqual([null]);
    }
  });

  it('is not read-only for other programs or for paths the shell expands', () => {
    for (const c of [
      'rm x',
      'npm test',
      'node x.js',
      'cp a b',
      'awk "{print}" f',
      'cat $HOME/.ssh/id_rsa',
      'cat ~root/x',
      'ls *.ts',
      'cat "$(pwd)/x"',
    ]) {
      expect(ro(c)[0], c).toBeNull();
    }
    expect(ro('echo $HOME')).toEqual([[]]);
  });

  it('is not read-only when arguments come from input (xargs) or from a file list', () => {
    expect(ro('echo /etc/passwd | xargs cat')).toEqual([[], null]);
    expect(ro('find . -name "*.ts" | xargs grep foo')).toEqual([['.'], null]);
    for (const c of ['wc --files0-from=list', 'du --files0-from list', 'file -f names', 'sort --files0-from=x']) {
      expect(ro(c)[0], c).toBeNull();
    }
  });

  it('reports the files named by options (date -f, diff --from-file, rg --files)', () => {
    expect(ro('date -f /etc/shadow')).toEqual([['/etc/shadow']]);
    expect(ro('date -r /etc/passwd +%s')).toEqual([['/etc/passwd']]);
    expect(ro('diff --from-file=/etc/passwd a')).toEqual([['a', '/etc/passwd']]);
    expect(ro('rg --files /etc')).toEqual([['/etc']]);
    expect(ro('rg --files')).toEqual([[]]);
  });

  it('is not read-only when PATH or a similar variable picks the program', () => {
    expect(ro('PATH=. ls')).toEqual([null]);
    expect(ro('export PATH=.; cat x')).toEqual([null, null]);
    expect(ro('env LD_PRELOAD=./x.so cat f')).toEqual([null]);
  });
});

describe('readPathArgs: files read, for Read rules', () => {
  it('returns the files of reading commands', () => {
    expect(reads('cat secrets/key.txt')).toEqual([['secrets/key.txt']]);
    expect(reads('head -n 3 .env')).toEqual([['.env']]);
    expect(reads('tail -f log')).toEqual([['log']]);
    expect(reads('less a')).toEqual([['a']]);
    expect(reads('grep -r foo .env src')).toEqual([['.env', 'src']]);
    expect(reads('rg foo .env')).toEqual([['.env']]);
    expect(reads("sed -n '1p' .env")).toEqual([['.env']]);
    expect(reads("sed -i 's/a/b/' .env")).toEqual([['.env']]);
    expect(reads("awk '{print}' .env")).toEqual([['.env']]);
    expect(reads('awk -f prog.awk data')).toEqual([['data', 'prog.awk']]);
    expect(reads('wc -l .env')).toEqual([['.env']]);
    expect(reads('diff .env .env.example')).toEqual([['.env', '.env.example']]);
    expect(reads('source .env')).toEqual([['.env']]);
    expect(reads('. ./env.sh arg')).toEqual([['./env.sh']]);
    expect(reads('jq .a config.json')).toEqual([['config.json']]);
    expect(reads('base64 id_rsa')).toEqual([['id_rsa']]);
  });

  it('finds reading commands behind wrappers and in nested shells', () => {
    expect(reads("bash -c 'cat .env'")).toEqual([[], ['.env']]);
    expect(reads('xargs cat .env')).toEqual([['.env']]);
  });

  it('returns [] for commands that do not read file contents', () => {
    expect(reads('ls secrets')).toEqual([[]]);
    expect(reads('echo .env')).toEqual([[]]);
    expect(reads('rm .env')).toEqual([[]]);
  });
});
