import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluateWithHooks } from '../../../src/main/core/hooks/pre-tool-use';
import { HookRuntime } from '../../../src/main/core/hooks/hook-runtime';
import { hookKiller, runHookProcess } from '../../../src/main/core/hooks/hook-process';
import type { CommandShell } from '../../../src/shared/node/command-shell';
import type { ProgramRunner } from '../../../src/shared/node/process-tree';
import { cmd, makeFixture, type Fixture } from '../permission/fixture';
import { addHook, script } from './hook-fixture';

// The person's own hooks on Windows run in the shell commands run in (Git Bash, else PowerShell), and a hook that
// times out is ended with its process tree (taskkill /T). The shells here are stand-ins at Linux paths: bash itself
// for Git Bash, and a small program that checks PowerShell's arguments, decodes -EncodedCommand and runs it.

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

function runtime(shell: CommandShell): HookRuntime {
  return new HookRuntime({ projectRoot: fx.project, env: fx.env, sessionId: 's', shell: async () => shell });
}

async function blockReason(shell: CommandShell, hook: string): Promise<string> {
  addHook(fx, 'user', 'PreToolUse', hook, { matcher: 'Bash' });
  const { evaluation } = await evaluateWithHooks(await fx.engine(), runtime(shell), cmd('ls'));
  expect(evaluation.decision).toMatchObject({ decision: 'deny', source: 'hook' });
  return evaluation.decision.reason;
}

describe('user hooks on Windows', () => {
  it('run in Git Bash: the shell found, `-c` and the command as written', async () => {
    const gitBash: CommandShell = { kind: 'bash', path: '/bin/bash', windows: true, how: 'test', problems: [] };
    const reason = await blockReason(gitBash, 'cat >/dev/null; echo "shell=$0 bash=${BASH_VERSION:+yes}" >&2; exit 2');
    expect(reason).toContain('shell=/bin/bash bash=yes');
  });

  it('run in PowerShell without a profile, the command encoded', async () => {
    const fake = script(
      fx,
      'fake-powershell.mjs',
      `#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
const args = process.argv.slice(2);
if (args.slice(0, 4).join(' ') !== '-NoLogo -NoProfile -NonInteractive -EncodedCommand') process.exit(90);
const command = Buffer.from(args[4], 'base64').toString('utf16le');
process.exit(spawnSync('/bin/sh', ['-c', command], { stdio: 'inherit' }).status ?? 91);
`,
    );
    const powerShell: CommandShell = { kind: 'powershell', path: fake, windows: true, how: 'test', problems: [] };
    const reason = await blockReason(powerShell, `cat >/dev/null; echo 'decoded "as written" é' >&2; exit 2`);
    expect(reason).toContain('decoded "as written" é');
  });

  it('Linux and macOS keep /bin/sh', async () => {
    const linux: CommandShell = { kind: 'bash', path: '/bin/bash', windows: false, how: 'PATH', problems: [] };
    const reason = await blockReason(linux, 'cat >/dev/null; echo "bash=${BASH_VERSION:-no}" >&2; exit 2');
    expect(reason).toContain(process.platform === 'linux' ? 'bash=no' : 'bash=');
  });
});

describe('a hook that times out on Windows', () => {
  function fakeTaskkill(code: number): ProgramRunner & { calls: string[][] } {
    const calls: string[][] = [];
    const run: ProgramRunner = async (file, args) => {
      calls.push([file, ...args]);
      // taskkill's job, done the Linux way so the test's process really ends
      if (code === 0) process.kill(-Number(args[1]), 'SIGKILL');
      return { code, output: code === 0 ? 'SUCCESS' : 'ERROR: Access is denied.' };
    };
    return Object.assign(run, { calls });
  }

  it('is ended with its tree by pid (taskkill /PID <pid> /T /F); a refusal still ends the hook itself', async () => {
    // (a refused taskkill leaves the hook's own children: this one has none, or their open pipes would keep it going)
    for (const [code, command] of [
      [0, 'sleep 600 & sleep 600'],
      [1, 'exec sleep 600'],
    ] as const) {
      const taskkill = fakeTaskkill(code);
      const result = await runHookProcess(
        {
          file: '/bin/sh',
          args: ['-c', command],
          env: { PATH: process.env.PATH ?? '' },
          cwd: fx.project,
        },
        '',
        300,
        undefined,
        hookKiller('win32', taskkill),
      );
      expect(result, `taskkill exit ${code}`).toMatchObject({ timedOut: true, exitCode: null });
      expect(taskkill.calls).toEqual([
        [expect.stringMatching(/taskkill\.exe$/), '/PID', expect.stringMatching(/^\d+$/), '/T', '/F'],
      ]);
    }
  });

  it('Linux and macOS end the process group', async () => {
    const child = spawn('/bin/sh', ['-c', 'sleep 600'], { detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', (_c, signal) => resolve(signal)));
    hookKiller('linux')(child);
    expect(await exited).toBe('SIGKILL');
  });
});
