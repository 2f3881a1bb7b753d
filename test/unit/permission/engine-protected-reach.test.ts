import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyApprovalAnswer } from '../../../src/main/core/permission/approvals';
import { cmd, makeFixture, type Fixture } from './fixture';

// Issue 44 item 2 (contract "Assurance: Run-time write targets"): a command whose writes only the run decides asks,
// in every mode and whatever rules or hooks say, when what it reaches holds a self-protected place.

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const ALLOW = [
  { behavior: 'allow' as const, rule: 'Bash(git:*)' },
  { behavior: 'allow' as const, rule: 'Bash(tar:*)' },
  { behavior: 'allow' as const, rule: 'Bash(cp:*)' },
  { behavior: 'allow' as const, rule: 'Bash(unzip:*)' },
  { behavior: 'allow' as const, rule: 'Bash(rsync:*)' },
  { behavior: 'allow' as const, rule: 'Bash(patch:*)' },
  { behavior: 'allow' as const, rule: 'Bash(npm:*)' },
];
const hardAsk = { decision: 'ask', source: 'hard', rule: null };

describe('a reach holding a protected place asks, whatever allows it', () => {
  it('in bypassPermissions mode, with allow rules for every program', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions', cli: ALLOW });
    for (const c of [
      'git checkout evil -- .claude/settings.json',
      'git checkout evil',
      "git 'checkout' evil",
      'git -C . checkout evil',
      'git -C src checkout evil',
      'env git checkout evil',
      'command git stash pop',
      'git reset --hard',
      'git stash',
      'git pull',
      'git apply hook.patch',
      'git clean -fdx',
      'git checkout x -- ./.claude',
      'git checkout x -- src/../.claude/agents',
      'git restore --source=evil .gatehouse',
      'git config core.hooksPath hooks',
      'tar -xf hooks.tar',
      'tar xf hooks.tar',
      'tar -xvf hooks.tar',
      'tar --extract --file hooks.tar',
      '\\tar -x -f hooks.tar',
      'tar -xf x.tar -C src/..',
      'tar -xf x.tar -C .git',
      'tar -xf x.tar -C .git/hooks',
      'cd src && tar -xf ../x.tar -C ..',
      'unzip x.zip',
      'cp -r evil/. .',
      'cp -r vendor/.claude .',
      'rsync -a evil/ .',
      'patch -p1 -i x.patch',
      'npm install --prefix .claude',
      'cd .claude && npm ci',
    ]) {
      expect(await e.decide(cmd(c)), c).toMatchObject(hardAsk);
    }
  });
  it('names what it reaches and says only a person can allow it', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions', cli: ALLOW });
    const d = await e.decide(cmd('tar -xf hooks.tar'));
    expect(d.reason).toContain('.claude/');
    expect(d.reason).toContain('.git/hooks/');
    expect(d.reason).toContain('only you can allow this, once');
    expect((await e.decide(cmd('git config core.hooksPath x'))).reason).toContain('.git/config');
  });
  it('ordinary work stays allowed: a pathspec of ordinary files, a new branch, a listing, another folder', async () => {
    fs.mkdirSync(path.join(fx.project, 'build'));
    fs.mkdirSync(path.join(fx.project, 'dist'));
    const e = await fx.engine({ mode: 'bypassPermissions', cli: ALLOW });
    for (const c of [
      'git checkout -- src/index.ts',
      'git checkout HEAD~1 -- src docs',
      'git checkout -b feature',
      'git switch -c feature',
      'git status',
      'git stash list',
      'git restore --staged .claude/settings.json',
      'tar -tf x.tar',
      'tar -czf out.tgz src',
      'tar -xf x.tar -C build/',
      'tar -xf x.tar -C build -C ../dist',
      'unzip -d build x.zip',
      'cp -r src dist',
      'cp -a src/ dist',
      'rsync -a src/ build/',
      'patch -d build -p1 -i x.patch',
      'npm install',
      'npm ci',
    ]) {
      expect(await e.decide(cmd(c)), c).toMatchObject({ decision: 'allow', source: 'cli' });
    }
  });
  it('a deny (rule or hard check) stands; an ask rule still asks', async () => {
    const e = await fx.engine({
      mode: 'bypassPermissions',
      cli: [...ALLOW, { behavior: 'deny', rule: 'Bash(git reset:*)' }],
    });
    expect(await e.decide(cmd('git reset --hard'))).toMatchObject({ decision: 'deny', source: 'cli' });
    expect(await e.decide(cmd('tar -xf x.tar -C .claude'))).toMatchObject({ decision: 'deny', source: 'hard' });
  });
  it("a hook's allow does not allow it, and its ask keeps the reason", async () => {
    const e = await fx.engine({ mode: 'default' });
    const hook = { sources: ['user' as const], hooks: 'guard.sh', reason: 'ok by guard.sh' };
    expect(await e.decide(cmd('git checkout evil'), { hook: { ...hook, decision: 'allow' } })).toMatchObject(hardAsk);
    const asked = await e.decide(cmd('git checkout evil'), { hook: { ...hook, decision: 'ask' } });
    expect(asked).toMatchObject(hardAsk);
    expect(await e.decide(cmd('git checkout -- src/index.ts'), { hook: { ...hook, decision: 'allow' } })).toMatchObject(
      {
        decision: 'allow',
      },
    );
  });
  it('auto mode: never left to the classifier', async () => {
    const e = await fx.engine({ mode: 'auto', cli: ALLOW });
    const d = await e.decide(cmd('git stash pop'));
    expect(d).toMatchObject(hardAsk);
    expect(d.classifiable).toBeUndefined();
  });
  it('an untrusted project asks the same way (not by trust)', async () => {
    fx.trust.trusted = false;
    const e = await fx.engine({ mode: 'bypassPermissions', cli: ALLOW });
    expect(await e.decide(cmd('tar -xf x.tar'))).toMatchObject(hardAsk);
  });
  it('a person may allow it once; a session or always answer counts once and stores no rule', async () => {
    const e = await fx.engine({ mode: 'default', cli: ALLOW });
    const call = cmd('git checkout evil');
    for (const kind of ['session', 'always'] as const) {
      const out = await applyApprovalAnswer(e, call, { kind });
      expect(out.decision).toMatchObject({ decision: 'allow', source: 'approval' });
      expect(out.decision.reason).toContain('counts once');
      expect(out.rulesAdded).toEqual([]);
      expect(await e.decide(call)).toMatchObject(hardAsk);
    }
    expect(fs.existsSync(path.join(fx.project, '.gatehouse', 'settings.local.yaml'))).toBe(false);
  });
});

describe('where a reach really is', () => {
  it('through a symlink to .claude, and through a link inside the reached folder', async () => {
    fs.symlinkSync('.claude', path.join(fx.project, 'cfg'));
    fs.mkdirSync(path.join(fx.project, 'build', 'deep'), { recursive: true });
    const e = await fx.engine({ mode: 'bypassPermissions', cli: ALLOW });
    expect(await e.decide(cmd('tar -xf x.tar -C cfg'))).toMatchObject({ decision: 'deny', source: 'hard' }); // a known write
    expect(await e.decide(cmd('git checkout x -- cfg/agents'))).toMatchObject(hardAsk);
    expect(await e.decide(cmd('cp -r x/. cfg/'))).toMatchObject({ decision: 'deny', source: 'hard' });
    expect(await e.decide(cmd('tar -xf x.tar -C build'))).toMatchObject({ decision: 'allow' });
    fs.symlinkSync('../../.git', path.join(fx.project, 'build', 'deep', 'g'));
    const d = await e.decide(cmd('tar -xf x.tar -C build'));
    expect(d).toMatchObject(hardAsk);
    expect(d.reason).toContain(path.join('build', 'deep', 'g'));
    expect(await e.decide(cmd('tar -xf x.tar -C build'))).toMatchObject(hardAsk); // read a level at a time
    // git never writes through links in the work tree: a pathspec of build/ stays allowed
    expect(await e.decide(cmd('git checkout -- build'))).toMatchObject({ decision: 'allow' });
  });
  it('git reaches the work tree of the repository it runs in: a nested repository is its own', async () => {
    fs.mkdirSync(path.join(fx.project, 'vendor', 'lib', '.git'), { recursive: true });
    fs.mkdirSync(path.join(fx.project, 'vendor', 'other'), { recursive: true });
    const e = await fx.engine({ mode: 'bypassPermissions', cli: ALLOW });
    expect(await e.decide(cmd('cd vendor/lib && git checkout evil'))).toMatchObject({ decision: 'allow' });
    expect(await e.decide(cmd('git -C vendor/lib reset --hard'))).toMatchObject({ decision: 'allow' });
    expect(await e.decide(cmd('cd vendor/other && git checkout evil'))).toMatchObject(hardAsk);
    expect(await e.decide(cmd('cd vendor/lib && git config core.hooksPath x'))).toMatchObject({ decision: 'allow' });
  });
  it('a project inside a larger repository: its checkout reaches the project too', async () => {
    fs.rmSync(path.join(fx.project, '.git'), { recursive: true });
    fs.mkdirSync(path.join(fx.root, '.git'));
    const e = await fx.engine({ mode: 'bypassPermissions', cli: ALLOW });
    expect(await e.decide(cmd('git -C src checkout evil'))).toMatchObject(hardAsk);
  });
  it('a reach only the run knows (a variable, arguments from input, the environment) asks', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions', cli: ALLOW });
    for (const c of [
      'tar -xf x.tar -C "$DIR"',
      'cd "$D" && tar -xf x.tar',
      'cat list | xargs tar -tf x.tar',
      'TAR_OPTIONS=-C.claude tar -xf x.tar -C build',
      'export TAR_OPTIONS=-C.claude; tar -xf x.tar -C build',
      'env GIT_WORK_TREE=.claude git checkout -- a',
      'GIT_DIR=x git checkout -- a',
      'npm_config_prefix=.claude npm ci',
      'HOME=. npm install',
      'source env.sh; tar -xf x.tar -C build',
    ]) {
      expect(await e.decide(cmd(c)), c).toMatchObject({ decision: 'ask' });
    }
    // a variable that cannot move where it writes leaves the reach as written
    fs.mkdirSync(path.join(fx.project, 'build'));
    for (const c of ['NODE_ENV=production npm ci', 'LANG=C tar -xf x.tar -C build', 'env CI=1 git checkout -- src'])
      expect(await e.decide(cmd(c)), c).toMatchObject({ decision: 'allow' });
  });
});
