import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../src/main/core/session/session-store';

// Each tool call's decision as a stored session gives it back (the page's badges after a resume), from transcripts
// written now (one `tool_call_decided` event with what was asked and the answer) and before (the worker's event
// plus main's separate `decision` line).

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-transcript-decisions-')));
  store = new SessionStore({ configDir: root });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const at = '2026-11-30T10:00:00.000Z';

describe('the decisions of a stored session', () => {
  it('reads the one event per call, with the asked verdict and the answer', async () => {
    const { header, writer } = await store.create({ projectRoot: root, agentMode: 'chat', model: 'm' });
    const once = {
      type: 'tool_call_decided' as const,
      id: 'c1',
      allow: true,
      source: 'approval',
      reason: 'allowed once by you',
      rule: null,
      asked: { source: 'trust' as const, reason: 'the project is not trusted', rule: null },
      answer: { choice: 'once' as const },
    };
    const byRule = {
      type: 'tool_call_decided' as const,
      id: 'c2',
      allow: true,
      source: 'user',
      reason: 'allowed by rule',
      rule: 'Read(**)',
    };
    writer.append({ type: 'event', runId: 'r1', event: once });
    writer.append({ type: 'event', runId: 'r1', event: byRule });
    await writer.close();
    const loaded = await store.load(header.id);
    expect(loaded.problems).toEqual([]);
    expect(loaded.decisions).toEqual([once, byRule]);
  });

  it('an older transcript (worker event + main decision line) stays readable: what the engine asked joins the call', async () => {
    const { header, writer } = await store.create({ projectRoot: root, agentMode: 'chat', model: 'm' });
    await writer.close();
    const ask = { decision: 'ask', source: 'trust', rule: null, reason: 'writes in an untrusted project ask' };
    const lines = [
      {
        type: 'decision',
        at,
        runId: 'r1',
        callId: 'c1',
        tool: 'write_file',
        engine: ask,
        final: { decision: 'allow', source: 'approval', rule: null, reason: 'allowed once by you' },
      },
      {
        type: 'event',
        at,
        runId: 'r1',
        event: {
          type: 'tool_call_decided',
          id: 'c1',
          allow: true,
          source: 'approval',
          reason: 'allowed once by you',
          rule: null,
        },
      },
      {
        type: 'decision',
        at,
        runId: 'r1',
        callId: 'c2',
        tool: 'run_command',
        engine: { decision: 'deny', source: 'hard', rule: null, reason: 'rm -rf /' },
        final: { decision: 'deny', source: 'hard', rule: null, reason: 'rm -rf /' },
      },
      {
        type: 'event',
        at,
        runId: 'r1',
        event: { type: 'tool_call_decided', id: 'c2', allow: false, source: 'hard', reason: 'rm -rf /', rule: null },
      },
    ];
    fs.appendFileSync(store.fileOf(header.id), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const loaded = await store.load(header.id);
    expect(loaded.problems).toEqual([]);
    expect(loaded.decisions).toEqual([
      {
        type: 'tool_call_decided',
        id: 'c1',
        allow: true,
        source: 'approval',
        reason: 'allowed once by you',
        rule: null,
        asked: { source: 'trust', rule: null, reason: ask.reason },
      },
      { type: 'tool_call_decided', id: 'c2', allow: false, source: 'hard', reason: 'rm -rf /', rule: null },
    ]);
  });

  it('a malformed decision event is reported with its line and skipped; the others are kept', async () => {
    const { header, writer } = await store.create({ projectRoot: root, agentMode: 'chat', model: 'm' });
    await writer.close();
    const bad = {
      type: 'event',
      at,
      runId: 'r1',
      event: {
        type: 'tool_call_decided',
        id: 'c1',
        allow: true,
        source: 'approval',
        reason: 'x',
        rule: null,
        answer: { choice: 'forever' },
      },
    };
    const good = {
      type: 'event',
      at,
      runId: 'r1',
      event: { type: 'tool_call_decided', id: 'c2', allow: false, source: 'schema', reason: 'bad JSON', rule: null },
    };
    fs.appendFileSync(store.fileOf(header.id), `${JSON.stringify(bad)}\n${JSON.stringify(good)}\n`);
    const loaded = await store.load(header.id);
    expect(loaded.problems).toEqual([{ line: 2, message: expect.stringContaining('choice') }]);
    expect(loaded.decisions.map((d) => d.id)).toEqual(['c2']);
  });
});
