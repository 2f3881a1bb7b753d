import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideCall, decisionEvent } from '../../src/main/services/agent-runs/permission-gate';
import type { ApprovalRequest, Approver } from '../../src/main/services/agent-runs/types';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';
import type { PermissionEngine } from '../../src/main/core/permission/engine';
import type { PermissionMode } from '../../src/shared/permission';
import type { SandboxStatus } from '../../src/shared/worker-protocol';
import { removeAfterWrites } from '../support/remove-after-writes';

// main's gate with the real engine: which sandbox each allowed command gets, by the reason it was allowed, and
// that the event, the approval and the audit log say so.

let root: string;
let configDir: string;
let project: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-sandbox-kind-')));
  project = path.join(root, 'project');
  configDir = path.join(root, 'config');
  fs.mkdirSync(project);
  fs.mkdirSync(configDir);
  fs.writeFileSync(path.join(project, 'notes.txt'), 'TODO\n');
});
const engines: PermissionEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.flushAudit();
  await removeAfterWrites(root);
});

async function engineIn(mode: PermissionMode): Promise<PermissionEngine> {
  const engine = await createPermissionEngine({
    projectRoot: project,
    configDir,
    env: { HOME: root },
    trust: fixedTrust(true),
    mode,
    sessionId: 's1',
  });
  engines.push(engine);
  return engine;
}

const working: SandboxStatus = { enabled: true, available: true, mechanism: 'bubblewrap' };
const run = (sandbox: SandboxStatus | null = working) => ({
  runId: 'r1',
  agentMode: 'do' as const,
  signal: new AbortController().signal,
  sandbox,
});
const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  tool: 'run_command',
  input: { command, ...extra },
  runId: 'r1',
  callId: 'c1',
});
const live = () => new AbortController().signal;

function answering(answer: Awaited<ReturnType<Approver>>): { approve: Approver; asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return { asked, approve: async (request) => (asked.push(request), answer) };
}

async function auditLines(engine: PermissionEngine): Promise<Array<Record<string, unknown>>> {
  await engine.flushAudit();
  return fs
    .readFileSync(path.join(configDir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('the sandbox matches the reason a command was allowed', () => {
  it('a read-only command the default mode allows runs read-only; the event and the audit line say so', async () => {
    const engine = await engineIn('default');
    const out = await decideCall(engine, null, run(), cmd('cat notes.txt'), live());
    expect(out.final).toMatchObject({ decision: 'allow', source: 'mode', sandbox: 'read-only' });
    expect(decisionEvent('c1', out)).toMatchObject({ allow: true, sandbox: 'read-only' });
    const lines = await auditLines(engine);
    expect(lines).toHaveLength(1); // one line for the one decision, with its sandbox
    expect(lines[0]).toMatchObject({ tool: 'run_command', decision: 'allow', source: 'mode', sandbox: 'read-only' });
  });

  it('the same command allowed by a rule runs in the workspace sandbox', async () => {
    fs.writeFileSync(path.join(configDir, 'settings.yaml'), "permissions:\n  allow: ['Bash(cat:*)']\n");
    const engine = await engineIn('default');
    const out = await decideCall(engine, null, run(), cmd('cat notes.txt'), live());
    expect(out.final).toMatchObject({ decision: 'allow', source: 'user', sandbox: 'workspace' });
    expect((await auditLines(engine))[0]).toMatchObject({ source: 'user', sandbox: 'workspace' });
  });

  it('a person allows it (strict mode asks even reads): the approval says where it will run, and it does', async () => {
    const engine = await engineIn('strict');
    const { approve, asked } = answering({ kind: 'once' });
    const out = await decideCall(engine, approve, run(), cmd('cat notes.txt'), live());
    expect(asked[0]).toMatchObject({ tool: 'run_command', sandbox: 'workspace' });
    expect(out.final).toMatchObject({ decision: 'allow', source: 'approval', sandbox: 'workspace' });
    const lines = await auditLines(engine);
    expect(lines.map((l) => [l.decision, l.source, l.sandbox])).toEqual([
      ['ask', 'mode', undefined],
      ['allow', 'approval', 'workspace'],
    ]);
  });

  it('bypassPermissions: a read-only verdict still runs read-only; a command it allows as exec gets the workspace', async () => {
    const engine = await engineIn('bypassPermissions');
    const read = await decideCall(engine, null, run(), cmd('cat notes.txt'), live());
    expect(read.final).toMatchObject({ source: 'mode', sandbox: 'read-only' });
    const exec = await decideCall(engine, null, run(), cmd('npm test'), live());
    expect(exec.final).toMatchObject({ decision: 'allow', source: 'mode', sandbox: 'workspace' });
  });

  it('says when nothing confines it: turned off, unavailable (a person allowed it), outside the sandbox', async () => {
    const engine = await engineIn('default');
    const off = await decideCall(engine, null, run({ enabled: false, available: false }), cmd('ls'), live());
    expect(off.final.sandbox).toBe('off');
    const missing = { enabled: true, available: false, reason: 'bubblewrap was not found at /x' };
    const { approve, asked } = answering({ kind: 'once' });
    const unavailable = await decideCall(engine, approve, run(missing), cmd('ls'), live());
    expect(asked[0]!.sandbox).toBe('unavailable');
    expect(unavailable.final).toMatchObject({ decision: 'allow', sandbox: 'unavailable' });
    const outside = await decideCall(engine, approve, run(), cmd('ls', { unsandboxed: true }), live());
    expect(outside.final).toMatchObject({ decision: 'allow', source: 'approval', sandbox: 'outside' });
    expect(asked[1]!.sandbox).toBe('outside');
    const lines = await auditLines(engine);
    // The engine's own allow that the missing sandbox turned into an ask did not run: it names no sandbox.
    expect(lines.map((l) => [l.decision, l.source, l.sandbox])).toEqual([
      ['allow', 'mode', 'off'],
      ['allow', 'mode', undefined],
      ['allow', 'approval', 'unavailable'],
      ['ask', 'hard', undefined],
      ['allow', 'approval', 'outside'],
    ]);
  });

  it('never on a deny nor on another tool', async () => {
    const engine = await engineIn('default');
    const denied = await decideCall(engine, null, run(), cmd('rm -rf /'), live());
    expect(denied.final.decision).toBe('deny');
    expect(denied.final.sandbox).toBeUndefined();
    const read = await decideCall(engine, null, run(), { tool: 'read_file', input: { path: 'notes.txt' } }, live());
    expect(read.final).toMatchObject({ decision: 'allow' });
    expect(read.final.sandbox).toBeUndefined();
    expect(decisionEvent('c1', read).sandbox).toBeUndefined();
  });
});
