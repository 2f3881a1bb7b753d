import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cmd, edit, makeFixture, read, write, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

describe('5. defaults', () => {
  const sensitive = [
    '.env',
    '.env.local',
    'certs/server.pem',
    'tls/x.key',
    'keys/id_rsa',
    'keys/id_rsa.pub',
    'k/id_ed25519',
    '.npmrc',
    '.netrc',
    '.git-credentials',
    'cfg/.ssh/config',
    'x/.aws/credentials',
    'a.p12',
    'b.pfx',
  ];
  it('reading a sensitive file asks, even in bypass mode, by file tool or by command', async () => {
    for (const f of sensitive) fx.write(f, 'secret\n');
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const f of sensitive) {
      expect(await e.decide(read(f)), f).toMatchObject({ decision: 'ask', source: 'defaults' });
      expect(await e.decide(cmd(`cat ${f}`)), `cat ${f}`).toMatchObject({ decision: 'ask', source: 'defaults' });
    }
    expect((await e.decide(cmd('grep KEY .env'))).source).toBe('defaults');
    expect((await e.decide(cmd('sort < .env'))).source).toBe('defaults');
    expect((await e.decide(read('src/index.ts'))).decision).toBe('allow');
  });
  it('globs are judged by the files they match: a glob does not hide a secret or a denied file', async () => {
    fx.settings('project', { deny: ['Read(./secrets/**)'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(cmd('cat .e*'))).toMatchObject({ decision: 'ask', source: 'defaults' });
    expect(await e.decide(cmd('cat .en?'))).toMatchObject({ decision: 'ask', source: 'defaults' });
    expect(await e.decide(cmd('head $PWD/.e[n]v'))).toMatchObject({ decision: 'ask', source: 'defaults' });
    expect(await e.decide(cmd('cat sec*/key.txt'))).toMatchObject({ decision: 'deny', source: 'project' });
    expect(await e.decide(cmd('cat < sec*/k*'))).toMatchObject({ decision: 'deny', source: 'project' });
    expect((await e.decide(cmd('cat src/*.ts'))).decision).toBe('allow');
    fx.write('.gatehouse/settings.yaml', 'permissions: {}\n');
    expect(await e.decide(cmd('rm .g*/settings.yaml'))).toMatchObject({ decision: 'deny', source: 'hard' });
  });
  it('a search whose file filter selects secrets asks; ordinary filters do not', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const glob of ['.env', '.env*', '**/.env.*', '*.pem', '**/id_rsa*', '*.{pem,key}']) {
      expect(await e.decide({ tool: 'search_code', input: { pattern: 'KEY', glob } }), glob).toMatchObject({
        decision: 'ask',
        source: 'defaults',
      });
    }
    for (const glob of ['*.ts', 'src/**/*.tsx', '*.md', '**/*']) {
      expect((await e.decide({ tool: 'search_code', input: { pattern: 'KEY', glob } })).decision, glob).toBe('allow');
    }
  });
  it('a symlink to a secret is judged by its target', async () => {
    fs.symlinkSync('.env', path.join(fx.project, 'config.txt'));
    const e = await fx.engine();
    expect(await e.decide(read('config.txt'))).toMatchObject({ decision: 'ask', source: 'defaults' });
  });
  it('an explicit rule for that path overrides the default', async () => {
    fx.settings('user', { allow: ['Read(.env)'] });
    const e = await fx.engine();
    expect(await e.decide(read('.env'))).toMatchObject({ decision: 'allow', source: 'user' });
    expect((await e.decide(cmd('cat .env'))).decision).toBe('allow');
    expect((await e.decide(read('.env.local'))).decision).toBe('ask');
  });
  it('writing under .git/ .vscode/ .idea/ .husky/ .claude/ asks, even in bypass mode', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const p of [
      '.git/hooks/pre-commit',
      '.vscode/settings.json',
      '.idea/workspace.xml',
      '.husky/pre-push',
      'sub/.claude/commands/x.md',
      'sub/.git/config',
    ]) {
      expect(await e.decide(write(p)), p).toMatchObject({ decision: 'ask', source: 'defaults' });
      expect(await e.decide(cmd(`echo x > ${p}`)), p).toMatchObject({ decision: 'ask', source: 'defaults' });
    }
    fs.symlinkSync('.git/hooks', path.join(fx.project, 'hooks'));
    expect(await e.decide(edit('hooks/pre-commit'))).toMatchObject({ decision: 'ask', source: 'defaults' });
    expect((await e.decide(write('src/.gitignore'))).decision).toBe('allow');
  });
  it("the project's own .claude/ folder is self-protected as a whole (agents, commands, skills grant tools)", async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const p of ['.claude/commands/x.md', '.claude/agents/a.md', '.claude/skills/s/SKILL.md']) {
      expect(await e.decide(write(p)), p).toMatchObject({ decision: 'deny', source: 'hard' });
      expect(await e.decide(cmd(`echo x > ${p}`)), p).toMatchObject({ decision: 'deny', source: 'hard' });
    }
  });
  it('an Edit rule for a config folder overrides that default', async () => {
    fx.settings('user', { allow: ['Edit(.vscode/**)'] });
    const e = await fx.engine();
    expect(await e.decide(write('.vscode/settings.json'))).toMatchObject({ decision: 'allow', source: 'user' });
  });
  it('a command writing outside the project asks in every mode; /dev/null and friends are free', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const c of [
      'echo hi > /etc/motd',
      `echo hi >> ${fx.outside}/log`,
      'echo hi | tee /tmp/x',
      'echo hi > link-out/x',
      'echo hi > ~/x',
    ]) {
      expect(await e.decide(cmd(c)), c).toMatchObject({ decision: 'ask', source: 'defaults' });
    }
    for (const c of [
      'echo hi > /dev/null',
      'echo hi 2> /dev/stderr',
      'echo hi > /dev/stdout',
      'npm test 2>&1 | tee build.log',
    ]) {
      expect((await e.decide(cmd(c))).decision, c).toBe('allow');
    }
    fx.settings('user', { allow: ['Edit(//tmp/gh-out/**)'] });
    expect((await e.decide(cmd('echo hi > /tmp/gh-out/log'))).decision).toBe('allow');
  });
});

describe('read-only commands', () => {
  it('read-only commands with paths inside count as reads; outside paths, writes or -delete do not', async () => {
    const e = await fx.engine();
    for (const c of [
      'ls -la src',
      'git status',
      'grep -rn TODO src | wc -l',
      'cat README.md',
      'find . -name "*.ts"',
      'echo hi > /dev/null',
      'git log --oneline | head -5',
    ]) {
      expect(await e.decide(cmd(c)), c).toMatchObject({ decision: 'allow', source: 'mode' });
    }
    for (const c of [
      'cat /etc/passwd',
      'cat ../outside/secret.txt',
      'cat link-file',
      'echo hi > out.txt',
      'ls link-out',
      'find . -name "*.ts" -exec rm {} +',
    ]) {
      expect((await e.decide(cmd(c))).decision, c).not.toBe('allow');
    }
  });
  it("`..` after a symlink is judged where the kernel lands (link/.. is the target's parent)", async () => {
    fs.writeFileSync(path.join(fx.root, 'top-secret.txt'), 'x');
    const e = await fx.engine();
    expect((await e.decide(cmd('cat link-out/../top-secret.txt'))).decision).toBe('ask');
    expect(await e.decide(read('link-out/../top-secret.txt'))).toMatchObject({ decision: 'deny', source: 'hard' });
    expect((await e.decide(cmd('cat src/../README.md'))).decision).toBe('allow');
  });
  it('strict mode asks even for read-only commands', async () => {
    const e = await fx.engine({ mode: 'strict' });
    expect(await e.decide(cmd('ls'))).toMatchObject({ decision: 'ask', source: 'mode' });
  });
  it('after a directory change, paths are judged from where the command runs', async () => {
    fs.mkdirSync(path.join(fx.project, 'sub'));
    fs.symlinkSync(path.join(fx.outside, 'secret.txt'), path.join(fx.project, 'sub', 'evil'));
    const e = await fx.engine();
    expect((await e.decide(cmd('cd sub && cat evil'))).decision).toBe('ask');
    expect((await e.decide(cmd('cd link-out && cat secret.txt'))).decision).toBe('ask');
    expect((await e.decide(cmd('cd src && cat ../../outside/secret.txt'))).decision).toBe('ask');
    expect((await e.decide(cmd('cd "$X" && cat a'))).decision).toBe('ask');
    expect((await e.decide(cmd('cd src && cat index.ts'))).decision).toBe('allow');
    fx.settings('user', { deny: ['Read(./secrets/**)'] });
    expect(await e.decide(cmd('cd secrets && cat key.txt'))).toMatchObject({ decision: 'deny', source: 'user' });
    fx.write('secrets/.env', 'x');
    expect(await e.decide(cmd('cd src && cat ../.env'))).toMatchObject({ decision: 'ask', source: 'defaults' });
  });
});

describe('6. trust', () => {
  it('untrusted: writes and commands ask (trust) even in bypass; reads and read-only commands are not capped', async () => {
    fx.trust.trusted = false;
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(write('src/x.ts'))).toMatchObject({ decision: 'ask', source: 'trust' });
    expect(await e.decide(cmd('npm test'))).toMatchObject({ decision: 'ask', source: 'trust' });
    expect((await e.decide(read('src/index.ts'))).decision).toBe('allow');
    expect((await e.decide(cmd('ls src'))).decision).toBe('allow');
  });
  it('untrusted: project and local allow rules are not loaded, their deny and ask rules are', async () => {
    fx.trust.trusted = false;
    fx.settings('project', { allow: ['Bash(npm test)'], deny: ['Read(.env)'] });
    fx.settings('claudeLocal', { allow: ['Bash(make:*)'], ask: ['Read(docs/**)'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect((await e.decide(cmd('npm test'))).decision).toBe('ask');
    expect((await e.decide(cmd('make all'))).decision).toBe('ask');
    expect(await e.decide(read('.env'))).toMatchObject({ decision: 'deny', source: 'project' });
    expect(await e.decide(read('docs/a.md'))).toMatchObject({ decision: 'ask', source: 'local' });
  });
  it('untrusted: a user allow asks instead; session, CLI and policy allows pass', async () => {
    fx.trust.trusted = false;
    fx.settings('user', { allow: ['Bash(npm test)'] });
    fx.settings('policy', { allow: ['Bash(make lint)'] });
    const e = await fx.engine({ cli: [{ behavior: 'allow', rule: 'Bash(make build)' }] });
    expect(await e.decide(cmd('npm test'))).toMatchObject({ decision: 'ask', source: 'trust', rule: 'Bash(npm test)' });
    expect(await e.decide(cmd('make lint'))).toMatchObject({ decision: 'allow', source: 'policy' });
    expect(await e.decide(cmd('make build'))).toMatchObject({ decision: 'allow', source: 'cli' });
    e.state.addSessionRule('allow', 'Bash(npm run dev)');
    expect(await e.decide(cmd('npm run dev'))).toMatchObject({ decision: 'allow', source: 'session' });
  });
  it('untrusted: project settings can neither loosen the mode nor add directories', async () => {
    fx.trust.trusted = false;
    fs.mkdirSync(path.join(fx.root, 'lib'));
    fx.settings('project', { mode: 'bypassPermissions', additionalDirectories: ['../lib', '/'] });
    const e = await fx.engine();
    expect(await e.decide(read('../lib/a.ts'))).toMatchObject({ decision: 'deny', source: 'hard' });
    fx.trust.trusted = true;
    expect((await e.decide(read('../lib/a.ts'))).decision).toBe('allow');
  });
  it('trust changes take effect on the next call', async () => {
    fx.settings('project', { allow: ['Bash(npm test)'] });
    const e = await fx.engine();
    expect((await e.decide(cmd('npm test'))).decision).toBe('allow');
    fx.trust.trusted = false;
    expect((await e.decide(cmd('npm test'))).decision).toBe('ask');
    fx.trust.trusted = true;
    expect((await e.decide(cmd('npm test'))).decision).toBe('allow');
  });
});
