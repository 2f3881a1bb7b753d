import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideCall } from '../../src/main/services/agent-runs/permission-gate';
import type { ApprovalRequest, Approver } from '../../src/main/services/agent-runs/types';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';
import type { PermissionEngine } from '../../src/main/core/permission/engine';
import type { SandboxStatus } from '../../src/shared/worker-protocol';
import { removeAfterWrites } from '../support/remove-after-writes';

// main's gate with the real engine in bypassPermissions mode on a trusted project: what the sandbox status changes.

let root: string;
let engine: PermissionEngine;
beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-sandbox-gate-')));
  const project = path.join(root, 'project');
  const configDir = path.join(root, 'config');
  fs.mkdirSync(project);
  fs.mkdirSync(configDir);
  engine = await createPermissionEngine({
    projectRoot: project,
    configDir,
    env: { HOME: root },
    trust: fixedTrust(true),
    mode: 'bypassPermissions',
    sessionId: 's1',
  });
});
afterEach(async () => {
  await engine.flushAudit(); // its audit lines land before the folder goes
  await removeAfterWrites(root);
});

const missing: SandboxStatus = { enabled: true, available: false, reason: 'bubblewrap was not found at /x' };
const working: SandboxStatus = { enabled: true, available: true, mechanism: 'bubblewrap' };
const off: SandboxStatus = { enabled: false, available: false, reason: 'turned off' };
const run = (sandbox: SandboxStatus | null) => ({
  runId: 'r1',
  agentMode: 'do' as const,
  signal: new AbortController().signal,
  sandbox,
});
const cmd = (command = 'ls') => ({ tool: 'run_command', input: { command }, runId: 'r1', callId: 'c1' });
const live = () => new AbortController().signal;

function answering(answer: Awaited<ReturnType<Approver>>): { approve: Approver; asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return { asked, approve: async (request) => (asked.push(request), answer) };
}

describe('decideCall with the command sandbox', () => {
  it('a working sandbox, or one the user turned off: the engine decides alone', async () => {
    for (const status of [working, off]) {
      const out = await decideCall(engine, null, run(status), cmd(), live());
      expect(out.final.decision).toBe('allow');
    }
  });

  it('a missing sandbox: an allowed command asks with the reason; no person: denied "approval required"', async () => {
    const out = await decideCall(engine, null, run(missing), cmd(), live());
    expect(out.engine).toMatchObject({
      decision: 'ask',
      reason: 'the OS sandbox is unavailable (bubblewrap was not found at /x): every command needs approval',
    });
    expect(out.final.decision).toBe('deny');
    expect(out.final.reason).toMatch(/^approval required: the OS sandbox is unavailable/);
  });

  it('the person approves once: allowed, with no rules offered; asked again next time', async () => {
    const { approve, asked } = answering({ kind: 'session' });
    const first = await decideCall(engine, approve, run(missing), cmd(), live());
    expect(first.final).toMatchObject({ decision: 'allow', source: 'approval' });
    expect(asked[0]).toMatchObject({ tool: 'run_command', suggestedRules: [] });
    expect(asked[0]!.reason).toContain('the OS sandbox is unavailable');
    await decideCall(engine, approve, run(missing), cmd(), live());
    expect(asked).toHaveLength(2);
  });

  it("the person denies: denied (not the engine's allow)", async () => {
    const { approve } = answering({ kind: 'deny', note: 'no sandbox, no' });
    const out = await decideCall(engine, approve, run(missing), cmd(), live());
    expect(out.final).toMatchObject({ decision: 'deny', source: 'approval', reason: 'denied by you: no sandbox, no' });
  });

  it('a hard deny stays a deny, and other tools are untouched', async () => {
    const hard = await decideCall(engine, answering({ kind: 'once' }).approve, run(missing), cmd('rm -rf /'), live());
    expect(hard.final.decision).toBe('deny');
    const read = await decideCall(engine, null, run(missing), { tool: 'read_file', input: { path: 'a.txt' } }, live());
    expect(read.final.decision).toBe('allow');
  });
});
