import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { matchesOnlyCodeFolders, matchesOnlySecrets } from '../../../src/main/core/permission/rules/narrow-pattern';
import { cmd, edit, makeFixture, read, runCliIn, write, type Fixture } from './fixture';

// Issue 44 item 6 (contract "Defaults"): a broad rule never unlocks a secret or a code-running folder; only a rule
// whose pattern matches nothing but such files does. Readers of whole trees read every file under their folders.

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
  fx.write('.vscode/settings.json', '{}\n');
  fx.write('certs/server.pem', 'PEM\n');
  fx.write('src/.env.local', 'K=1\n');
});
afterEach(() => fx.cleanup());

const allow = (...rules: string[]) => rules.map((rule) => ({ behavior: 'allow' as const, rule }));
const defaultsAsk = { decision: 'ask', source: 'defaults' };

describe('which patterns match nothing but secrets or code-folder files', () => {
  it('Read patterns', () => {
    for (const p of [
      '.env',
      './.env',
      '/.env',
      '**/.env',
      '.env.*',
      '**/*.pem',
      '*.{pem,key}',
      'certs/*.pem',
      'id_rsa*',
      '~/.ssh/**',
      '~/.ssh/config',
      '.ssh',
      '//home/u/.aws/credentials',
      'src/.env.local',
      'secrets/server*.key',
    ])
      expect(matchesOnlySecrets(p), p).toBe(true);
    for (const p of [
      '**',
      '*',
      './**',
      'src/**',
      '.env*',
      '*env',
      '*.pem*',
      '{.env,README.md}',
      '~/**',
      '.ss*/**',
      '!(x).pem',
      'certs/',
    ])
      expect(matchesOnlySecrets(p), p).toBe(false);
  });
  it('Edit patterns', () => {
    for (const p of [
      '.vscode/settings.json',
      '.git/**',
      '.git/hooks/*',
      '**/.husky/**',
      '.idea',
      '//x/y/.git/config',
      '.claude/',
    ])
      expect(matchesOnlyCodeFolders(p), p).toBe(true);
    for (const p of ['**', 'src/**', '.vs*/settings.json', '*/settings.json', '.gitignore', '.github/**'])
      expect(matchesOnlyCodeFolders(p), p).toBe(false);
  });
});

describe('file tools', () => {
  it('Read, Read(**), Read(src/**) do not unlock a secret; Read(.env), Read(**/*.pem) do', async () => {
    for (const rules of [['Read'], ['Read(**)'], ['Read(./**)'], ['Read(src/**)'], ['Read(.env*)'], ['read_file']]) {
      const e = await fx.engine({ mode: 'bypassPermissions', cli: allow(...rules) });
      for (const p of ['.env', 'src/.env.local', 'certs/server.pem', `${fx.project}/.env`])
        expect(await e.decide(read(p)), `${rules.join()} ${p}`).toMatchObject(defaultsAsk);
      expect(await e.decide(read('src/index.ts'))).toMatchObject({ decision: 'allow' });
    }
    const narrow = await fx.engine({ cli: allow('Read(.env)', 'Read(**/*.pem)', 'Read(.env.*)') });
    for (const p of ['.env', 'certs/server.pem', 'src/.env.local'])
      expect(await narrow.decide(read(p)), p).toMatchObject({ decision: 'allow', source: 'cli' });
  });
  it('Edit, Edit(**) do not unlock a code-running folder; Edit(.vscode/settings.json), Edit(.git/**) do', async () => {
    for (const rules of [['Edit'], ['Edit(**)'], ['Write(./**)'], ['write_file']]) {
      const e = await fx.engine({ mode: 'bypassPermissions', cli: allow(...rules) });
      for (const call of [write('.git/hooks/pre-commit'), edit('.vscode/settings.json'), write('src/.husky/x')])
        expect(await e.decide(call), `${rules.join()} ${JSON.stringify(call)}`).toMatchObject(defaultsAsk);
      expect(await e.decide(write('src/new.ts'))).toMatchObject({ decision: 'allow' });
    }
    const narrow = await fx.engine({ cli: allow('Edit(.vscode/settings.json)', 'Edit(.git/**)') });
    expect(await narrow.decide(edit('.vscode/settings.json'))).toMatchObject({ decision: 'allow', source: 'cli' });
    expect(await narrow.decide(write('.git/hooks/pre-commit'))).toMatchObject({ decision: 'allow', source: 'cli' });
  });
});

describe('commands', () => {
  it('Bash(cat:*), Bash(*), Bash do not read a secret, in any spelling; a rule naming it does', async () => {
    fs.symlinkSync('.env', path.join(fx.project, 'notes.txt'));
    for (const rules of [
      ['Bash(cat:*)'],
      ['Bash(*)'],
      ['Bash'],
      ['Bash(cat:*)', 'Read(**)'],
      ['Bash(cat *)', 'Read'],
    ]) {
      const e = await fx.engine({ mode: 'bypassPermissions', cli: allow(...rules, 'Bash(echo:*)') });
      for (const c of [
        'cat .env',
        'cat ./.env',
        'cat src/../.env',
        "cat '.env'",
        'cat .e*',
        'cat notes.txt',
        'cat certs/server.pem',
        'cat "$(echo .env)"',
        'cat < .env',
        `cat ${fx.home}/.ssh/id_rsa`,
      ])
        expect(await e.decide(cmd(c)), `${rules.join()}: ${c}`).toMatchObject({ decision: 'ask' });
      expect(await e.decide(cmd('cat src/index.ts'))).toMatchObject({ decision: 'allow' });
    }
    for (const rules of [['Bash(cat .env)'], ['Bash(cat:*)', 'Read(.env)'], ['Bash(cat:*)', 'Read(./.env)']]) {
      const e = await fx.engine({ mode: 'default', cli: allow(...rules) });
      expect(await e.decide(cmd('cat .env')), rules.join()).toMatchObject({ decision: 'allow', source: 'cli' });
    }
  });
  it('Bash(cp:*) does not write a code-running folder; Edit(.git/**) or a rule naming the target does', async () => {
    for (const rules of [['Bash(cp:*)'], ['Bash(cp:*)', 'Edit'], ['Bash(*)', 'Edit(**)']]) {
      const e = await fx.engine({ mode: 'bypassPermissions', cli: allow(...rules) });
      for (const c of ['cp x .git/hooks/pre-commit', 'cp x .vscode/settings.json', 'cp -r x .husky/hooks'])
        expect(await e.decide(cmd(c)), `${rules.join()}: ${c}`).toMatchObject({ decision: 'ask' });
      expect(await e.decide(cmd('cp src/index.ts src/copy.ts'))).toMatchObject({ decision: 'allow' });
    }
    const e = await fx.engine({ cli: allow('Bash(cp:*)', 'Edit(.vscode/**)') });
    expect(await e.decide(cmd('cp x .vscode/settings.json'))).toMatchObject({ decision: 'allow', source: 'cli' });
    const exact = await fx.engine({ cli: allow('Bash(cp x .vscode/settings.json)') });
    expect(await exact.decide(cmd('cp x .vscode/settings.json'))).toMatchObject({ decision: 'allow', source: 'cli' });
  });
});

describe('readers of whole trees read every file under their folders', () => {
  it('grep -r, rg --hidden, diff, tar -c, cp -r, rsync -a: the secret default and Read deny rules apply', async () => {
    fx.write('other/a.txt', 'a\n');
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const c of [
      'grep -r API_KEY .',
      'grep -R API_KEY src',
      'egrep -rn KEY .',
      'grep -d recurse KEY .',
      'rg --hidden KEY',
      'rg -uu KEY src',
      'rg -g "*.pem" PEM',
      'diff -r other .',
      'diff -N other src',
      'diff -rq . other',
      'tar -czf /tmp/x.tgz .',
      'zip -r out.zip certs',
      'cp -r src backup',
      'rsync -a . host:backup',
      'scp -r certs host:',
      'cmp .env README.md',
      'comm .env README.md',
    ])
      expect(await e.decide(cmd(c)), c).toMatchObject(defaultsAsk);
    const denied = await fx.engine({
      mode: 'bypassPermissions',
      cli: [{ behavior: 'deny', rule: 'Read(./secrets/**)' }],
    });
    for (const c of ['grep -r k .', 'diff -r secrets other', 'rg k', 'tar -cf out.tar secrets', 'cp -a . ../backup'])
      expect(await denied.decide(cmd(c)), c).toMatchObject({ decision: 'deny', source: 'cli' });
    // a glob operand is every folder it matches; one matching nothing names no folder
    for (const c of ['grep -r k secr*', 'grep -r k s?crets', 'diff -r se[c]rets other'])
      expect(await denied.decide(cmd(c)), c).toMatchObject({ decision: 'deny', source: 'cli' });
    expect(await denied.decide(cmd('grep -rn k *.nomatch docs'))).toMatchObject({ decision: 'allow' });
  });
  it('what the program provably skips stays allowed: rg hidden files, --include, --exclude, other folders', async () => {
    const e = await fx.engine({ mode: 'default' });
    for (const c of [
      'grep -rn TODO docs',
      'grep -rn --include=*.ts TODO .',
      "grep -r --exclude='.env*' --exclude='*.pem' TODO .",
      'rg TODO src', // src/.env.local is hidden: rg skips it
      'rg -g "*.ts" TODO',
      'diff docs docs',
      'grep TODO README.md',
    ])
      expect(await e.decide(cmd(c)), c).toMatchObject({ decision: 'allow', source: 'mode' });
    // certs/server.pem is not hidden: rg reads it
    expect(await e.decide(cmd('rg TODO'))).toMatchObject(defaultsAsk);
  });
  it('a link in the tree is read where it leads', async () => {
    fs.symlinkSync(path.join(fx.home, '.ssh'), path.join(fx.project, 'docs', 'keys'));
    fs.mkdirSync(path.join(fx.project, 'notes'));
    fs.symlinkSync('../.env', path.join(fx.project, 'notes', 'env-link'));
    const e = await fx.engine({ mode: 'default' });
    // grep -r and rg follow no link they find while recursing; grep -R and rg -L do
    expect(await e.decide(cmd('grep -r KEY notes'))).toMatchObject({ decision: 'allow' });
    expect(await e.decide(cmd('rg KEY notes'))).toMatchObject({ decision: 'allow' });
    expect(await e.decide(cmd('grep -R KEY notes'))).toMatchObject(defaultsAsk);
    expect(await e.decide(cmd('rg -L KEY notes'))).toMatchObject(defaultsAsk);
    expect(await e.decide(cmd('grep -R PRIVATE docs'))).toMatchObject(defaultsAsk);
    expect(await e.decide(cmd('diff -r docs src'))).toMatchObject(defaultsAsk);
    // the app's main process reads the disk asynchronously, a level at a time: the same answers
    expect(await e.decide(cmd('grep -R PRIVATE docs'))).toMatchObject(defaultsAsk);
    expect(await e.decide(cmd('grep -rn TODO docs'))).toMatchObject({ decision: 'allow' }); // -r: links not followed
    expect(await e.decide(cmd('grep -r TODO .'))).toMatchObject(defaultsAsk);
    fx.write('deep/a/b/c/d/e/f/g/h/i/j/k/.env', 'K=1\n');
    fx.write('deep/a/b/c/d/e/f/g/h/i/j/k/l/m/n.txt', 'n\n');
    expect(await e.decide(cmd('grep -r TODO deep'))).toMatchObject(defaultsAsk);
    expect(await e.decide(cmd('grep -r TODO deep/a/b/c/d/e/f/g/h/i/j/k/l'))).toMatchObject({ decision: 'allow' });
  });
});

describe('gatehouse permissions check', () => {
  it('shows the same answers through the CLI', async () => {
    fx.trust.trusted = true;
    const check = async (call: unknown, ...args: string[]) =>
      JSON.parse(
        (await runCliIn(fx, ['permissions', 'check', '--project', fx.project, '--call', JSON.stringify(call), ...args]))
          .out[0]!,
      ) as { decision: string; source: string };
    expect(await check(read('.env'), '--allow', 'Read(**)')).toMatchObject(defaultsAsk);
    expect(await check(read('.env'), '--allow', 'Read(.env)')).toMatchObject({ decision: 'allow' });
    expect(await check(cmd('cat .env'), '--allow', 'Bash(cat:*)', '--mode', 'bypassPermissions')).toMatchObject(
      defaultsAsk,
    );
    expect(await check(write('.git/hooks/x'), '--allow', 'Edit', '--mode', 'bypassPermissions')).toMatchObject(
      defaultsAsk,
    );
    expect(await check(cmd('diff -r docs .'), '--deny', 'Read(.env)')).toMatchObject({ decision: 'deny' });
  });
});
