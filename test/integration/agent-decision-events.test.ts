import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentSession } from '../../src/main/services/agent-runs/agent-session';
import type { ApprovalAnswer, Approver, SessionEvent } from '../../src/main/services/agent-runs/types';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';
import { createNodeWorkerHost } from '../../src/main/services/worker-host/node-worker-host';
import type { WorkerSupervisor } from '../../src/main/services/worker-host/supervisor';
import { AgentEventSchema } from '../../src/shared/agent-events';
import type { AgentEvent, ToolCallDecided } from '../../src/shared/agent-events';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import { removeAfterWrites } from '../support/remove-after-writes';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { jsonLines, makeAppDirs, modelEnv, sentToolResults } from './agent-helpers';
import type { AppDirs } from './agent-helpers';

// One decision event per tool call, through the real worker process and the real SDK against the loopback model:
// main's gate emits it for every call the engine judged (with what it asked and the person's answer), the worker
// only for a call main never saw (malformed input). The stream has it once, before the call's output; the
// transcript file stores it once; a resumed session has it back.

let fake: FakeAnthropic;
let dirs: AppDirs;
let worker: WorkerSupervisor;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  dirs = makeAppDirs('gatehouse-decision-events-');
  worker = createNodeWorkerHost({ configDir: dirs.configDir, env: modelEnv(dirs.root, fake) });
});
afterEach(async () => {
  await worker.stop();
  await fake.close();
  await removeAfterWrites(dirs.root);
});

const ANSWERS: Record<string, ApprovalAnswer> = {
  t_once: { kind: 'once' },
  t_note: { kind: 'deny', note: 'not b.txt, use c.txt' },
  t_always: { kind: 'always' },
};

async function open(approve: Approver | null, resume?: string): Promise<AgentSession> {
  return AgentSession.open({
    host: worker,
    configDir: dirs.configDir,
    env: modelEnv(dirs.root, fake),
    project: dirs.project,
    model: 'claude-test',
    provider: { apiKey: fake.apiKey, baseURL: fake.baseURL },
    approve,
    trust: fixedTrust(false),
    ...(resume ? { resume } : {}),
  });
}

const decidedOf = (events: AgentEvent[]): ToolCallDecided[] =>
  events.filter((e): e is ToolCallDecided => e.type === 'tool_call_decided');

describe('one decision event per call', () => {
  it('in the stream (before the output), in the transcript file with the answer, and back on resume', async () => {
    fake.enqueue(
      reply(
        text('Working.'),
        toolUse('t_once', 'write_file', { path: 'a.txt', content: 'a\n' }),
        toolUse('t_hard', 'run_command', { command: 'rm -rf /' }),
        { type: 'tool_use', id: 't_bad', name: 'write_file', rawJson: '{"path": "x.txt", "content": ' },
        toolUse('t_note', 'write_file', { path: 'b.txt', content: 'b\n' }),
        toolUse('t_always', 'write_file', { path: 'c.txt', content: 'c\n' }),
        toolUse('t_cmd', 'run_command', { command: 'echo from-the-command' }),
      ),
      reply(text('Done.')),
    );
    const asked: string[] = [];
    const approve: Approver = async (request) => {
      asked.push(request.callId ?? '?');
      return ANSWERS[request.callId ?? ''] ?? { kind: 'deny', note: 'unexpected ask' };
    };
    const session = await open(approve);
    const events: AgentEvent[] = [];
    const onEvent = (e: SessionEvent): void => void events.push(AgentEventSchema.parse(e.event));
    const result = await session.prompt('write some files', { agentMode: 'do', onEvent });
    expect(result.status).toBe('completed');
    await session.close({ stopWorker: false });
    expect(asked).toEqual(['t_once', 't_note', 't_always']);

    // The stream: exactly one decision per call, after its start and before anything it printed or returned.
    const ids = ['t_once', 't_hard', 't_bad', 't_note', 't_always', 't_cmd'];
    const decided = decidedOf(events);
    expect(decided.map((d) => d.id).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const started = events.findIndex((e) => e.type === 'tool_call_started' && e.id === id);
      const decision = events.findIndex((e) => e.type === 'tool_call_decided' && e.id === id);
      const after = events.findIndex(
        (e) => (e.type === 'tool_call_output' || e.type === 'tool_call_finished') && e.id === id,
      );
      expect(started, id).toBeGreaterThanOrEqual(0);
      expect(decision, id).toBeGreaterThan(started);
      expect(after, id).toBeGreaterThan(decision);
    }
    const byId = new Map(decided.map((d) => [d.id, d]));
    expect(byId.get('t_once')).toMatchObject({
      allow: true,
      source: 'approval',
      asked: { source: 'trust' },
      answer: { choice: 'once' },
    });
    expect(byId.get('t_hard')).toMatchObject({ allow: false, source: 'hard' });
    expect(byId.get('t_hard')).not.toHaveProperty('asked');
    expect(byId.get('t_bad')).toMatchObject({ allow: false, source: 'schema' });
    expect(byId.get('t_note')).toMatchObject({
      allow: false,
      source: 'approval',
      reason: 'denied by you: not b.txt, use c.txt',
      answer: { choice: 'deny', note: 'not b.txt, use c.txt' },
    });
    const always = byId.get('t_always')!;
    expect(always).toMatchObject({
      allow: true,
      source: 'approval',
      answer: { choice: 'always', rules: [expect.stringContaining('c.txt')] },
    });
    expect(fs.readFileSync(path.join(dirs.project, '.gatehouse', 'settings.local.yaml'), 'utf8')).toContain(
      always.answer!.rules![0]!,
    );
    expect(byId.get('t_cmd')).toMatchObject({ allow: true });
    expect(byId.get('t_cmd')).not.toHaveProperty('answer');
    expect(
      events.some((e) => e.type === 'tool_call_output' && e.id === 't_cmd' && e.chunk.includes('from-the-command')),
    ).toBe(true);
    // What the person saw is what happened, and what the model was told.
    expect(fs.readFileSync(path.join(dirs.project, 'a.txt'), 'utf8')).toBe('a\n');
    expect(fs.existsSync(path.join(dirs.project, 'b.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(dirs.project, 'c.txt'), 'utf8')).toBe('c\n');
    const results = new Map(sentToolResults(fake.requests[1]!.body).map((r) => [r.tool_use_id, r]));
    expect(String(results.get('t_note')?.content)).toContain('not b.txt, use c.txt');

    // The transcript file: the same six events, once each; no separate decision lines.
    const lines = jsonLines(fs.readFileSync(path.join(dirs.configDir, 'sessions', `${session.id}.jsonl`), 'utf8'));
    const stored = lines
      .filter((l) => l.type === 'event' && (l.event as AgentEvent).type === 'tool_call_decided')
      .map((l) => l.event);
    expect(stored).toEqual(decided);
    expect(lines.some((l) => l.type === 'decision')).toBe(false);

    // Resumed: the session has every call's decision again (the page's badges come from these).
    const resumed = await open(null, session.id);
    try {
      expect(resumed.problems).toEqual([]);
      expect(resumed.decisions).toEqual(decided);
    } finally {
      await resumed.close({ stopWorker: false });
    }
  }, 120_000);

  it("a cancel while the person decides: still one decision event, main's, before the run's end", async () => {
    fake.enqueue(reply(toolUse('t_wait', 'write_file', { path: 'w.txt', content: 'w\n' })), reply(text('Stopped.')));
    let waiting: () => void = () => undefined;
    const asking = new Promise<void>((resolve) => (waiting = resolve));
    const never: Approver = (_request, signal) =>
      new Promise((resolve) => {
        waiting();
        signal.addEventListener('abort', () => resolve({ kind: 'deny' }), { once: true });
      });
    const session = await open(never);
    const events: AgentEvent[] = [];
    const run = session.prompt('write w.txt', { onEvent: (e) => void events.push(e.event) });
    await asking;
    expect(await session.cancel()).toBe(true);
    const result = await run;
    await session.close({ stopWorker: false });
    expect(result.status).toBe('cancelled');
    const decided = decidedOf(events);
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ id: 't_wait', allow: false, asked: expect.any(Object) });
    expect(fs.existsSync(path.join(dirs.project, 'w.txt'))).toBe(false);
    const lines = jsonLines(fs.readFileSync(path.join(dirs.configDir, 'sessions', `${session.id}.jsonl`), 'utf8'));
    expect(
      lines.filter((l) => l.type === 'event' && (l.event as AgentEvent).type === 'tool_call_decided'),
    ).toHaveLength(1);
  }, 120_000);
});
