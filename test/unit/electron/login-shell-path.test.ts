import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LoginShellPathCache,
  loginShellArgs,
  mergePath,
  needsLoginShellPath,
  readLoginShellPath,
} from '../../../src/main/shells/electron/login-shell-path';

// The login-shell PATH resolver against fake login shells: scripts that behave like a user's shell whose profile
// sets PATH, exports a secret, prints a banner, hangs, or fails.

let dir: string;
let log: string;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-login-shell-')));
  log = path.join(dir, 'calls.log');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A fake login shell: records its arguments and environment flag, runs `profile`, then the -c command with sh. */
function fakeShell(name: string, profile: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    [
      '#!/bin/sh',
      `echo "$* | resolving=$GATEHOUSE_RESOLVING_ENVIRONMENT" >> '${log}'`,
      profile,
      'for last; do :; done',
      'exec /bin/sh -c "$last"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return file;
}

const calls = (): string[] => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);

describe('readLoginShellPath', () => {
  it("returns the PATH the user's profile sets, ignoring what the profile prints, through -i -l -c", async () => {
    const shell = fakeShell(
      'zsh',
      [`echo 'Welcome! Last login: today'`, 'export PATH="/opt/homebrew/bin:$HOME/.nvm/bin:/usr/bin:/bin"'].join('\n'),
    );
    const result = await readLoginShellPath({ shell, env: { HOME: '/home/someone', PATH: '/usr/bin:/bin' } });
    expect(result).toEqual({ path: '/opt/homebrew/bin:/home/someone/.nvm/bin:/usr/bin:/bin' });
    expect(calls()).toHaveLength(1);
    expect(calls()[0]).toMatch(/^-i -l -c printf .* \| resolving=1$/);
  });

  it('takes PATH only: a key the profile exports is neither returned nor put in this process', async () => {
    const shell = fakeShell(
      'bash',
      ['export ANTHROPIC_API_KEY=sk-ant-from-profile-0000', 'export PATH="/opt/tools/bin:/usr/bin"'].join('\n'),
    );
    const before = process.env.ANTHROPIC_API_KEY;
    const result = await readLoginShellPath({ shell, env: { PATH: '/usr/bin' } });
    expect(result).toEqual({ path: '/opt/tools/bin:/usr/bin' });
    expect(JSON.stringify(result)).not.toContain('sk-ant');
    expect(process.env.ANTHROPIC_API_KEY).toBe(before);
  });

  it('drops relative and empty entries (an attacker-controlled working directory must not be searched)', async () => {
    const shell = fakeShell('sh', 'export PATH=".:bin::/usr/local/bin:/usr/bin"');
    expect(await readLoginShellPath({ shell, env: {} })).toEqual({ path: '/usr/local/bin:/usr/bin' });
  });

  it('gives up on a shell that hangs, within its time limit, and kills its process group', async () => {
    const pidFile = path.join(dir, 'sleeper.pid');
    const shell = fakeShell('zsh', `sleep 60 & echo $! > '${pidFile}'; wait`);
    const result = await readLoginShellPath({ shell, env: {}, timeoutMs: 300 });
    expect(result).toEqual({ error: `${shell} did not answer within 0.3 s` });
    const sleeper = Number(fs.readFileSync(pidFile, 'utf8'));
    // SIGKILL was sent to the group: the background sleep dies (wait for it instead of sleeping a fixed time).
    await expect
      .poll(
        () => {
          try {
            const stat = fs.readFileSync(`/proc/${sleeper}/stat`, 'utf8');
            return stat.split(') ')[1]?.[0] === 'Z' ? 'gone' : 'alive';
          } catch {
            return 'gone';
          }
        },
        { timeout: 5_000 },
      )
      .toBe('gone');
  });

  it('reports a shell that fails, prints nothing usable, or is not a path', async () => {
    expect(await readLoginShellPath({ shell: fakeShell('fish', 'exit 3'), env: {} })).toEqual({
      error: expect.stringMatching(/printed no PATH \(exit 3\)/),
    });
    expect(await readLoginShellPath({ shell: fakeShell('sh', 'export PATH=relative:also-relative'), env: {} })).toEqual(
      { error: expect.stringMatching(/unusable PATH/) },
    );
    expect(await readLoginShellPath({ shell: 'zsh', env: {} })).toEqual({
      error: 'no usable login shell (SHELL is "zsh")',
    });
    expect(await readLoginShellPath({ shell: undefined, env: {} })).toEqual({
      error: 'no usable login shell (SHELL is not set)',
    });
    expect(await readLoginShellPath({ shell: path.join(dir, 'missing-shell'), env: {} })).toEqual({
      error: expect.stringMatching(/ENOENT/),
    });
  });

  it('asks the shell once per process (cached), failures included', async () => {
    const cache = new LoginShellPathCache({ shell: fakeShell('zsh', 'export PATH="/opt/x/bin:/usr/bin"'), env: {} });
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    expect(await cache.get()).toEqual({ path: '/opt/x/bin:/usr/bin' });
    expect(a).toBe(b);
    expect(calls()).toHaveLength(1);
  });
});

describe('when and how', () => {
  it('asks on macOS and Linux desktop launches only: not from a terminal, not on Windows, not when turned off', () => {
    expect(needsLoginShellPath('darwin', {})).toBe(true);
    expect(needsLoginShellPath('linux', { PATH: '/usr/bin' })).toBe(true);
    expect(needsLoginShellPath('darwin', { TERM: 'xterm-256color' })).toBe(false);
    expect(needsLoginShellPath('win32', {})).toBe(false);
    expect(needsLoginShellPath('linux', { GATEHOUSE_LOGIN_SHELL_PATH: '0' })).toBe(false);
  });

  it('uses -ic for csh and tcsh', () => {
    expect(loginShellArgs('/bin/tcsh', 'x')).toEqual(['-ic', 'x']);
    expect(loginShellArgs('/usr/local/bin/fish', 'x')).toEqual(['-i', '-l', '-c', 'x']);
  });

  it("puts the login shell's entries first and keeps the launch's own", () => {
    expect(mergePath('/opt/homebrew/bin:/usr/bin', '/usr/bin:/bin:/usr/sbin')).toBe(
      '/opt/homebrew/bin:/usr/bin:/bin:/usr/sbin',
    );
    expect(mergePath('/a', undefined)).toBe('/a');
  });
});
