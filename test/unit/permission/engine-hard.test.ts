import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyApproval } from '../../../src/main/core/permission/approvals';
import { cmd, edit, makeFixture, read, write, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const hardDeny = { decision: 'deny', source: 'hard' };

describe('3. path confinement of file tools', () => {
  it('judges paths by where they really land, in every mode', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const call of [
      read('../outside/secret.txt'),
      read('/etc/passwd'),
      read(path.join(fx.outside, 'secret.txt')),
      read('link-out/secret.txt'),
      read('link-file'),
      write('link-out/new.txt'),
      write('link-out/deep/new/file.txt'),
      edit('link-file'),
      read('~/.ssh/id_rsa'),
      read('src/../../outside/secret.txt'),
      { tool: 'find_files', input: { pattern: '*.txt', path: '../outside' } },
      { tool: 'find_files', input: { pattern: '../outside/*.txt' } },
      { tool: 'find_files', input: { pattern: '/etc/*' } },
      { tool: 'search_code', input: { pattern: 'x', path: 'link-out' } },
      { tool: 'search_code', input: { pattern: 'x', path: '/' } },
    ]) {
      expect(await e.decide(call), JSON.stringify(call)).toMatchObject(hardDeny);
    }
  });
  it('new files and folders inside the project are fine; absolute paths inside too', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect((await e.decide(write('src/deep/new/file.ts'))).decision).toBe('allow');
    expect((await e.decide(read(path.join(fx.project, 'src/index.ts')))).decision).toBe('allow');
    expect((await e.decide({ tool: 'search_code', input: { pattern: 'x' } })).decision).toBe('allow');
  });
  it('a symlink swapped in is judged on the next call', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect((await e.decide(write('swap/x.txt'))).decision).toBe('allow');
    fs.symlinkSync(fx.outside, path.join(fx.project, 'swap'));
    expect(await e.decide(write('swap/x.txt'))).toMatchObject(hardDeny);
  });
  it('additional directories from settings widen the allowed ground (relative ones from the project root)', async () => {
    fs.mkdirSync(path.join(fx.root, 'shared-lib'));
    fx.settings('user', { additionalDirectories: ['../shared-lib'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect((await e.decide(read('../shared-lib/a.ts'))).decision).toBe('allow');
    expect(await e.decide(read('../outside/secret.txt'))).toMatchObject(hardDeny);
  });
  it('no rule and no approval overrides a hard deny', async () => {
    fx.settings('policy', { allow: ['Read', 'Read(//**)', 'Edit'] });
    const e = await fx.engine({ mode: 'bypassPermissions', cli: [{ behavior: 'allow', rule: 'Bash' }] });
    expect(await e.decide(read('../outside/secret.txt'))).toMatchObject(hardDeny);
    expect(await applyApproval(e, read('../outside/secret.txt'), { kind: 'always' })).toMatchObject(hardDeny);
    expect(await e.decide(cmd('sudo ls'))).toMatchObject(hardDeny);
  });
});

describe('3. self-protection', () => {
  it('file tools cannot write Gatehouse settings, the user config dir or Claude Code settings', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    fx.settings('user', { allow: ['Edit'] });
    for (const p of [
      '.gatehouse/settings.yaml',
      '.gatehouse/settings.local.yaml',
      '.gatehouse/anything/new.txt',
      '.claude/settings.json',
      '.claude/settings.local.json',
      './.gatehouse/../.gatehouse/x',
    ]) {
      expect(await e.decide(write(p)), p).toMatchObject(hardDeny);
    }
    // Reading them is fine; other files under .claude are not protected (they ask by default instead).
    expect((await e.decide(read('.gatehouse/settings.yaml'))).decision).toBe('allow');
  });
  it('a symlink into a protected place does not help', async () => {
    fs.mkdirSync(path.join(fx.project, '.gatehouse'));
    fs.symlinkSync('.gatehouse', path.join(fx.project, 'innocent'));
    fs.symlinkSync('.claude/settings.json', path.join(fx.project, 'cfg.json'));
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(write('innocent/settings.yaml'))).toMatchObject(hardDeny);
    expect(await e.decide(write('cfg.json'))).toMatchObject(hardDeny);
  });
  it('the user config dir, when it is an additional directory, is still protected', async () => {
    fx.settings('user', { additionalDirectories: [fx.configDir] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(write(path.join(fx.configDir, 'settings.yaml')))).toMatchObject(hardDeny);
    expect(await e.decide(write(path.join(fx.configDir, 'trust.json')))).toMatchObject(hardDeny);
  });
  it('commands cannot write them by redirection, tee, cp, mv, sed -i or rm', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const c of [
      'echo "allow: [Bash]" > .gatehouse/settings.yaml',
      'echo x >> .gatehouse/settings.local.yaml',
      'echo x | tee .claude/settings.json',
      'cp /tmp/x .gatehouse/settings.yaml',
      'mv evil.yaml .gatehouse/settings.local.yaml',
      "sed -i 's/deny/allow/' .gatehouse/settings.yaml",
      'rm -f .gatehouse/settings.yaml',
      'rm -rf .gatehouse/*',
      `echo x > ${fx.configDir}/settings.yaml`,
      'echo x > ~/.claude/settings.json',
    ]) {
      expect(await e.decide(cmd(c)), c).toMatchObject(hardDeny);
    }
    expect((await e.decide(cmd('cat .gatehouse/settings.yaml'))).decision).toBe('allow');
  });
});

describe('3. built-in deny list through the engine', () => {
  it('denies in bypass mode, whatever the rules say', async () => {
    fx.settings('user', { allow: ['Bash'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const c of [
      'sudo apt update',
      'rm -rf /',
      '/bin/rm -rf ~',
      'env FOO=1 sudo ls',
      'ls && sudo reboot',
      'echo $(sudo id)',
      "bash -c 'rm -rf /'",
      'dd if=/dev/zero of=/dev/sda',
      'echo x > /dev/sda',
      'mkfs.ext4 /dev/sdb1',
      'shutdown -h now',
      ':(){ :|:& };:',
    ]) {
      expect(await e.decide(cmd(c)), c).toMatchObject(hardDeny);
    }
  });
  it('words that merely mention dangerous commands are not denied', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const c of [
      'echo "sudo is a word"',
      'git commit -m "remove rm -rf / from docs"',
      'rm -rf ./build',
      'grep -rn sudo src',
    ]) {
      expect((await e.decide(cmd(c))).decision, c).toBe('allow');
    }
  });
});
