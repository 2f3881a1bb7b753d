import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideCall, type GateRun } from '../../src/main/core/gate/decision-path';
import type { ApprovalRequest, Approver } from '../../src/main/services/agent-runs/types';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';
import type { PermissionEngine } from '../../src/main/core/permission/engine';
import { commandShellOf } from '../../src/main/core/sandbox/sandbox-gate';
import { sandboxDoctor } from '../../src/main/core/sandbox/sandbox-doctor';
import { shellLines } from '../../src/main/shells/cli/doctor-command';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { CommandSandboxCache } from '../../src/sandbox/sandbox-cache';
import { WINDOWS_NO_SANDBOX } from '../../src/sandbox/command-sandbox';
import type { CommandShell } from '../../src/shared/node/command-shell';
import type { SandboxStatus } from '../../src/shared/worker-protocol';
import { CommandConfinement } from '../../src/worker/command-confinement';
import { sandboxBannerText, sandboxShort } from '../../src/renderer/src/sandbox/SandboxBanner';
import { removeAfterWrites } from '../support/remove-after-writes';

// A Windows machine, the platform injected: no OS sandbox (every command asks, said in the status bar, the banner
// and the doctor), and commands in Git Bash, or in PowerShell, which the engine cannot read.

let root: string;
let project: string;
let configDir: string;
let engine: PermissionEngine;
beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-windows-')));
  project = path.join(root, 'project');
  configDir = path.join(root, 'config');
  fs.mkdirSync(project);
  fs.mkdirSync(configDir);
  // The person allows every command and turned bypass on: only the missing sandbox and PowerShell make it ask.
  fs.writeFileSync(
    path.join(configDir, 'settings.yaml'),
    'permissions:\n  allow: [Bash]\n  deny: ["Bash(Remove-Item:*)"]\n',
  );
  engine = await createPermissionEngine({
    projectRoot: project,
    configDir,
    env: { HOME: root, GATEHOUSE_HOME: configDir },
    trust: fixedTrust(true),
    mode: 'bypassPermissions',
    sessionId: 's1',
  });
});
afterEach(async () => {
  await engine.flushAudit();
  await removeAfterWrites(root);
});

const GIT_BASH: CommandShell = {
  kind: 'bash',
  path: 'C:\\Program Files\\Git\\bin\\bash.exe',
  windows: true,
  how: 'the registry (HKLM\\SOFTWARE\\GitForWindows)',
  problems: [],
};
const POWERSHELL: CommandShell = {
  kind: 'powershell',
  path: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
  windows: true,
  how: 'Windows PowerShell (no Git Bash found)',
  problems: ['GATEHOUSE_GIT_BASH_PATH=D:\\nope\\bash.exe is not used: no such file'],
};

/** The worker's CommandConfinement on a Windows machine: Windows' sandbox answer and the given shell. */
async function windowsStatus(shell: CommandShell, enabled = true): Promise<SandboxStatus> {
  const confinement = new CommandConfinement(
    new CommandSandboxCache((config) => createCommandSandbox(config, 'win32')),
    async () => shell,
  );
  try {
    const config = { enabled, allowedDomains: [], envAllowList: [], userConfigDir: configDir, home: root };
    const confined = await confinement.resolve(project, [], config);
    expect(confined.shell).toBe(shell);
    return confined.status;
  } finally {
    await confinement.dispose();
  }
}

const run = (sandbox: SandboxStatus | null): GateRun => ({
  runId: 'r1',
  agentMode: 'do',
  signal: new AbortController().signal,
  sandbox,
});
const cmd = (command: string) => ({ tool: 'run_command', input: { command }, runId: 'r1', callId: 'c1' });
const live = () => new AbortController().signal;

function answering(answer: Awaited<ReturnType<Approver>>): { approve: Approver; asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return { asked, approve: async (request) => (asked.push(request), answer) };
}

describe('Windows has no command sandbox', () => {
  it('the sandbox is unavailable with the reason; the worker reports the shell with it', async () => {
    expect(
      await createCommandSandbox(
        { projectRoot: project, additionalDirectories: [], userConfigDir: configDir, home: root, allowedDomains: [] },
        'win32',
      ),
    ).toEqual({
      kind: 'unavailable',
      reason: 'Windows has no command sandbox in Gatehouse: every command asks',
    });
    expect(await windowsStatus(GIT_BASH)).toEqual({
      enabled: true,
      available: false,
      reason: WINDOWS_NO_SANDBOX,
      shell: 'bash',
    });
    expect(await windowsStatus(POWERSHELL)).toMatchObject({ available: false, shell: 'powershell' });
  });

  it('the status bar says unavailable, the banner why and that every command asks', async () => {
    const status = await windowsStatus(GIT_BASH);
    const view = { enabled: status.enabled, available: status.available, reason: status.reason ?? null, warnings: [] };
    expect(sandboxShort({ kind: 'status', status: view })).toEqual({ text: 'Sandbox: unavailable', tone: 'bad' });
    expect(sandboxBannerText(view)).toEqual({
      tone: 'alert',
      text: `Commands are not sandboxed: ${WINDOWS_NO_SANDBOX}. Every command will ask for approval.`,
    });
  });

  it('gatehouse doctor says so, and which shell runs the commands', async () => {
    const report = await sandboxDoctor({
      configDir,
      projectRoot: project,
      projectTrusted: true,
      env: { HOME: root },
      platform: 'win32',
    });
    expect(report).toMatchObject({
      enabled: true,
      available: false,
      reason: WINDOWS_NO_SANDBOX,
      everyCommandAsks: true,
    });
    expect(shellLines(GIT_BASH)).toEqual([
      'commands run in: Git Bash (C:\\Program Files\\Git\\bin\\bash.exe, found through the registry (HKLM\\SOFTWARE\\GitForWindows))',
    ]);
    expect(shellLines(POWERSHELL)).toEqual([
      'commands run in: PowerShell (C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe): no Git Bash was found',
      '  Gatehouse cannot read PowerShell, so every command asks; install Git for Windows, or set',
      '  GATEHOUSE_GIT_BASH_PATH to its bash.exe, to run commands in bash',
      'ignored: GATEHOUSE_GIT_BASH_PATH=D:\\nope\\bash.exe is not used: no such file',
    ]);
  });

  it('Git Bash: a command every rule and the mode allow asks, once only, naming the reason', async () => {
    const status = await windowsStatus(GIT_BASH);
    expect((await decideCall(engine, null, run(status), cmd('npm test'), live())).final).toMatchObject({
      decision: 'deny',
      reason: `approval required: the OS sandbox is unavailable (${WINDOWS_NO_SANDBOX}): every command needs approval`,
    });
    const { approve, asked } = answering({ kind: 'session' });
    const out = await decideCall(engine, approve, run(status), cmd('npm test'), live());
    expect(out.final).toMatchObject({ decision: 'allow', source: 'approval' });
    expect(asked[0]).toMatchObject({ suggestedRules: [] });
  });
});

describe('PowerShell commands', () => {
  it('ask even where the person turned the sandbox off and a Bash rule and bypass mode would allow them', async () => {
    const off = await windowsStatus(POWERSHELL, false);
    expect(off).toMatchObject({ enabled: false, shell: 'powershell' });
    const { approve, asked } = answering({ kind: 'always' });
    const out = await decideCall(engine, approve, run(off), cmd('Get-ChildItem'), live());
    expect(out.engine).toMatchObject({ decision: 'ask', source: 'defaults' });
    expect(out.engine.reason).toContain('it runs in PowerShell');
    expect(asked[0]).toMatchObject({ suggestedRules: [], onceOnly: true });
    expect(out.final).toMatchObject({ decision: 'allow', source: 'approval' });
    // "always" remembered nothing: the next one asks again
    const again = await decideCall(engine, null, run(off), cmd('Get-ChildItem'), live());
    expect(again.final.decision).toBe('deny');
    // the same text run by bash (the sandbox turned off by the person) is allowed by the rule
    const bash = await decideCall(engine, null, run({ ...off, shell: 'bash' }), cmd('Get-ChildItem'), live());
    expect(bash.final.decision).toBe('allow');
  });

  it('a deny rule still denies', async () => {
    const out = await decideCall(
      engine,
      answering({ kind: 'once' }).approve,
      run(await windowsStatus(POWERSHELL)),
      cmd('Remove-Item -Recurse src'),
      live(),
    );
    expect(out.final).toMatchObject({ decision: 'deny', rule: 'Bash(Remove-Item:*)' });
  });

  it('on Windows a status that names no shell (not checked, a worker that failed) is PowerShell, never bash', () => {
    const unchecked: SandboxStatus = { enabled: true, available: false, reason: 'not checked yet' };
    expect(commandShellOf(unchecked, 'win32')).toBe('powershell');
    expect(commandShellOf(null, 'win32')).toBe('powershell');
    expect(commandShellOf({ ...unchecked, shell: 'bash' }, 'win32')).toBe('bash');
    expect(commandShellOf(unchecked, 'linux')).toBe('bash');
    expect(commandShellOf(unchecked, 'darwin')).toBe('bash');
  });
});
