import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideCall } from '../../src/main/services/agent-runs/permission-gate';
import type { ApprovalRequest, Approver } from '../../src/main/services/agent-runs/types';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';
import type { PermissionEngine } from '../../src/main/core/permission/engine';
import type { RuleText } from '../../src/main/core/settings/settings-store';
import type { PermissionMode } from '../../src/shared/permission';
import type { SandboxStatus } from '../../src/shared/worker-protocol';
import { removeAfterWrites } from '../support/remove-after-writes';

// main's gate with the real engine: a run_command with `unsandboxed: true` is only ever allowed by a person, once.

let root: string;
let project: string;
let configDir: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-unsandboxed-gate-')));
  project = path.join(root, 'project');
  configDir = path.join(root, 'config');
  fs.mkdirSync(project);
  fs.mkdirSync(configDir);
});
const engines: PermissionEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.flushAudit())); // their audit lines land before the folder goes
  await removeAfterWrites(root);
});

async function engineWith(mode: PermissionMode, cliRules: RuleText[] = []): Promise<PermissionEngine> {
  const engine = await createPermissionEngine({
    projectRoot: project,
    configDir,
    env: { HOME: root },
    trust: fixedTrust(true),
    mode,
    cliRules,
    sessionId: 's1',
  });
  engines.push(engine);
  return engine;
}
const working: SandboxStatus = { enabled: true, available: true, mechanism: 'bubblewrap' };
const missing: SandboxStatus = { enabled: true, available: false, reason: 'no bwrap' };
const run = (agentMode: 'chat' | 'plan' | 'do' = 'do', sandbox: SandboxStatus = working) => ({
  runId: 'r1',
  agentMode,
  signal: new AbortController().signal,
  sandbox,
});
const outside = (command = 'echo hi > /var/tmp/x') => ({
  tool: 'run_command',
  input: { command, unsandboxed: true },
  runId: 'r1',
  callId: 'c1',
});
const inside = (command = 'echo hi > /var/tmp/x') => ({
  tool: 'run_command',
  input: { command },
  runId: 'r1',
  callId: 'c2',
});
const live = () => new AbortController().signal;

function answering(...answers: Awaited<ReturnType<Approver>>[]): { approve: Approver; asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    approve: async (request) => (asked.push(request), answers[Math.min(asked.length - 1, answers.length - 1)]!),
  };
}

describe('run_command with unsandboxed: true', () => {
  it('no allow rule, no mode, no CLI flag allows it: it asks, once-only, with no rules offered', async () => {
    for (const mode of ['default', 'acceptEdits', 'strict'] as const) {
      const engine = await engineWith(mode, [
        { behavior: 'allow', rule: 'Bash' },
        { behavior: 'allow', rule: 'Bash(echo:*)' },
      ]);
      expect((await engine.decide(inside('echo hi'))).decision).toBe('allow'); // the rule works for a sandboxed call
      const { approve, asked } = answering({ kind: 'deny' });
      const out = await decideCall(engine, approve, run(), outside('echo hi'), live());
      expect(out.engine).toMatchObject({ decision: 'ask', source: 'hard' });
      expect(out.engine.reason).toContain('runs outside the OS sandbox');
      expect(asked[0]).toMatchObject({ onceOnly: true, suggestedRules: [] });
      expect(out.final).toMatchObject({ decision: 'deny', source: 'approval' });
    }
  });

  it('a read-only command the mode would allow still asks', async () => {
    const engine = await engineWith('default');
    expect((await engine.decide(inside('ls'))).decision).toBe('allow');
    expect(await engine.decide(outside('ls'))).toMatchObject({ decision: 'ask', source: 'hard' });
  });

  it('bypassPermissions: denied "unavailable in bypass mode", and no one is asked', async () => {
    const engine = await engineWith('bypassPermissions');
    const { approve, asked } = answering({ kind: 'once' });
    const out = await decideCall(engine, approve, run(), outside(), live());
    expect(out.final).toMatchObject({ decision: 'deny', source: 'mode' });
    expect(out.final.reason).toContain('unavailable in bypass mode');
    expect(asked).toHaveLength(0);
  });

  it('a deny rule still denies; the hard deny list still applies; plan mode refuses it', async () => {
    const engine = await engineWith('default', [{ behavior: 'deny', rule: 'Bash(curl:*)' }]);
    const { approve, asked } = answering({ kind: 'once' });
    expect((await decideCall(engine, approve, run(), outside('curl https://x.io'), live())).final).toMatchObject({
      decision: 'deny',
      source: 'cli',
      rule: 'Bash(curl:*)',
    });
    expect((await decideCall(engine, approve, run(), outside('rm -rf /'), live())).final).toMatchObject({
      decision: 'deny',
      source: 'hard',
    });
    expect((await decideCall(engine, approve, run('plan'), outside('echo hi'), live())).final).toMatchObject({
      decision: 'deny',
      source: 'agent-mode',
    });
    expect(asked).toHaveLength(0);
  });

  it('"allow once": runs this call; asked again next time', async () => {
    const engine = await engineWith('default');
    const { approve, asked } = answering({ kind: 'once' });
    const first = await decideCall(engine, approve, run(), outside(), live());
    expect(first.final).toMatchObject({
      decision: 'allow',
      source: 'approval',
      reason: 'allowed once by you, outside the OS sandbox',
    });
    expect((await decideCall(engine, approve, run(), outside(), live())).final.decision).toBe('allow');
    expect(asked).toHaveLength(2);
  });

  it('a "session" or "always" answer counts once and stores no rule (not even one the shell sent)', async () => {
    const engine = await engineWith('default');
    const rulesBefore = (await engine.state.snapshot()).rules.length;
    const { approve, asked } = answering(
      { kind: 'session', rules: ['Bash'] },
      { kind: 'always', rules: ['Bash(echo:*)'] },
      { kind: 'deny' },
    );
    const session = await decideCall(engine, approve, run(), outside(), live());
    expect(session.final).toMatchObject({ decision: 'allow', source: 'approval', rule: null });
    expect(session.final.reason).toContain('counts once');
    const always = await decideCall(engine, approve, run(), outside(), live());
    expect(always.final).toMatchObject({ decision: 'allow', rule: null });
    expect((await engine.state.snapshot()).rules.length).toBe(rulesBefore);
    expect(fs.existsSync(path.join(project, '.gatehouse', 'settings.local.yaml'))).toBe(false);
    // nothing was learnt: the sandboxed command still asks, the unsandboxed one asks again
    expect((await engine.decide(inside())).decision).toBe('ask');
    expect((await decideCall(engine, approve, run(), outside(), live())).final.decision).toBe('deny');
    expect(asked).toHaveLength(3);
  });

  it('a session approval of the sandboxed command does not carry over to the unsandboxed one', async () => {
    const engine = await engineWith('default');
    const { approve, asked } = answering({ kind: 'session' }, { kind: 'deny' });
    expect((await decideCall(engine, approve, run(), inside('npm test'), live())).final.decision).toBe('allow');
    expect((await engine.decide(inside('npm test'))).decision).toBe('allow');
    expect((await engine.decide(outside('npm test'))).decision).toBe('ask');
    expect((await decideCall(engine, approve, run(), outside('npm test'), live())).final.decision).toBe('deny');
    expect(asked.map((a) => a.onceOnly ?? false)).toEqual([false, true]);
  });

  it('no person (print mode): denied "approval required"; a missing sandbox changes nothing', async () => {
    const engine = await engineWith('acceptEdits', [{ behavior: 'allow', rule: 'Bash' }]);
    for (const status of [working, missing]) {
      const out = await decideCall(engine, null, run('do', status), outside(), live());
      expect(out.final.decision).toBe('deny');
      expect(out.final.reason).toMatch(/^approval required: runs outside the OS sandbox/);
    }
  });

  it("the audit log records the unsandboxed call, the ask and the person's answer", async () => {
    const engine = await engineWith('default');
    await decideCall(engine, answering({ kind: 'always' }).approve, run(), outside('make deploy'), live());
    await engine.flushAudit(); // the log is appended in order, off the caller's path
    const lines = fs
      .readFileSync(path.join(configDir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { input: Record<string, unknown>; decision: string; reason: string });
    const mine = lines.filter((l) => l.input.command === 'make deploy');
    expect(mine.map((l) => l.decision)).toEqual(['ask', 'allow']);
    expect(mine.every((l) => l.input.unsandboxed === true)).toBe(true);
    expect(mine[1]!.reason).toContain('outside the OS sandbox');
  });
});
