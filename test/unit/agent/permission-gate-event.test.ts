import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideCall, decisionEvent } from '../../../src/main/services/agent-runs/permission-gate';
import type { ApprovalRequest, Approver } from '../../../src/main/services/agent-runs/types';
import { createPermissionEngine } from '../../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../../src/main/core/permission/trust-oracle';
import type { PermissionEngine } from '../../../src/main/core/permission/engine';
import type { ApprovalAnswer } from '../../../src/main/core/permission/approvals';
import { AgentEventSchema } from '../../../src/shared/agent-events';
import type { ToolCallDecided } from '../../../src/shared/agent-events';
import type { PermissionRequest } from '../../../src/shared/worker-protocol';
import { removeAfterWrites } from '../../support/remove-after-writes';

// The one decision event main's gate makes of each call it judges: the final decision, what the engine asked first,
// and the person's answer with the rules it added. Real engine, real (untrusted) project folder.

let root: string;
let project: string;
let configDir: string;
let engine: PermissionEngine;
beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-gate-event-')));
  project = path.join(root, 'project');
  configDir = path.join(root, 'config');
  fs.mkdirSync(project);
  fs.mkdirSync(configDir);
  engine = await createPermissionEngine({
    projectRoot: project,
    configDir,
    env: { HOME: root },
    trust: fixedTrust(false),
    sessionId: 's1',
    cliRules: [{ behavior: 'allow', rule: 'Read(docs/**)' }],
  });
});
afterEach(async () => {
  await engine.flushAudit(); // the audit queue writes into root: done before it goes
  await removeAfterWrites(root);
});

const run = () => ({ runId: 'r1', agentMode: 'chat' as const, signal: new AbortController().signal });
const call = (tool: string, input: unknown): PermissionRequest => ({ tool, input, runId: 'r1', callId: 'c1' });
const writeCall = () => call('write_file', { path: 'notes/a.txt', content: 'x' });

function answering(answer: ApprovalAnswer): { approve: Approver; asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return { asked, approve: async (request) => (asked.push(request), answer) };
}

/** The event the gate emits for one call, checked against the shared schema (what every consumer validates with). */
async function eventOf(approve: Approver | null, request: PermissionRequest): Promise<ToolCallDecided> {
  const event = decisionEvent('c1', await decideCall(engine, approve, run(), request, new AbortController().signal));
  expect(AgentEventSchema.parse(event)).toEqual(event);
  return event;
}

describe("the gate's decision event", () => {
  it('asked, answered "once": allowed by approval, with what the engine asked and the answer, no rule added', async () => {
    const { approve, asked } = answering({ kind: 'once' });
    const event = await eventOf(approve, writeCall());
    expect(asked).toHaveLength(1);
    expect(event).toEqual({
      type: 'tool_call_decided',
      id: 'c1',
      allow: true,
      source: 'approval',
      reason: 'allowed once by you',
      rule: null,
      asked: { source: asked[0]!.source, reason: asked[0]!.reason, rule: null },
      answer: { choice: 'once' },
    });
  });

  it('asked, answered "always": the answer names the rules it added, and they are in the local settings file', async () => {
    const { approve, asked } = answering({ kind: 'always' });
    const event = await eventOf(approve, writeCall());
    const suggested = asked[0]!.suggestedRules;
    expect(suggested.length).toBeGreaterThan(0);
    expect(event).toMatchObject({
      allow: true,
      source: 'approval',
      asked: { source: asked[0]!.source },
      answer: { choice: 'always', rules: suggested },
    });
    const local = fs.readFileSync(path.join(project, '.gatehouse', 'settings.local.yaml'), 'utf8');
    for (const rule of suggested) expect(local).toContain(rule);
  });

  it('asked, answered "session" with an edited rule: that rule is the one recorded', async () => {
    const { approve } = answering({ kind: 'session', rules: ['Write(notes/**)'] });
    expect(await eventOf(approve, writeCall())).toMatchObject({
      allow: true,
      answer: { choice: 'session', rules: ['Write(notes/**)'] },
    });
    expect(engine.state.sessionRules()).toContainEqual({ behavior: 'allow', rule: 'Write(notes/**)' });
  });

  it('asked, answered "deny" with a note: denied by you, the note kept in the answer and the reason', async () => {
    const { approve } = answering({ kind: 'deny', note: 'not in notes/' });
    const event = await eventOf(approve, writeCall());
    expect(event).toMatchObject({
      allow: false,
      source: 'approval',
      reason: 'denied by you: not in notes/',
      answer: { choice: 'deny', note: 'not in notes/' },
    });
    expect(event.asked).toBeDefined();
  });

  it('asked with nobody to answer: denied "approval required", what it asked is kept, no answer', async () => {
    const event = await eventOf(null, writeCall());
    expect(event).toMatchObject({
      allow: false,
      reason: expect.stringMatching(/^approval required: /),
      asked: expect.any(Object),
    });
    expect(event).not.toHaveProperty('answer');
  });

  it('allowed by a rule: source and rule, nobody asked', async () => {
    const { approve, asked } = answering({ kind: 'deny' });
    const event = await eventOf(approve, call('read_file', { path: 'docs/guide.md' }));
    expect(event).toMatchObject({ allow: true, source: 'cli', rule: 'Read(docs/**)' });
    expect(event).not.toHaveProperty('asked');
    expect(event).not.toHaveProperty('answer');
    expect(asked).toHaveLength(0);
  });

  it('a hard deny: denied by the hard stage, the person never asked', async () => {
    const { approve, asked } = answering({ kind: 'once' });
    const event = await eventOf(approve, call('run_command', { command: 'rm -rf /' }));
    expect(event).toMatchObject({ allow: false, source: 'hard' });
    expect(event).not.toHaveProperty('asked');
    expect(event).not.toHaveProperty('answer');
    expect(asked).toHaveLength(0);
  });
});
