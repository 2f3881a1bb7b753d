import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent-events';
import { AgentEventSchema } from '../../src/shared/agent-events';
import { runAgent } from '../../src/worker/agent/runner';
import type { BeforeToolCall, RunAgentOptions } from '../../src/worker/agent/runner';
import { AnthropicProvider } from '../../src/worker/providers/anthropic';
import { createToolRegistry } from '../../src/worker/tools/tool-set';
import type { ToolRegistry } from '../../src/worker/tools/types';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequestBody } from '../support/fake-anthropic';

// The agent runner end to end: the real SDK against the loopback Messages API, the real tool registry, real files.

let fake: FakeAnthropic;
let project: string;
let registry: ToolRegistry;

beforeEach(async () => {
  fake = await startFakeAnthropic();
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-agent-')));
  registry = createToolRegistry({ ripgrepPath: null });
});
afterEach(async () => {
  await fake.close();
  fs.rmSync(project, { recursive: true, force: true });
});

const allowAll: BeforeToolCall = async () => ({ allow: true, source: 'mode', reason: 'allowed by the mode' });

function run(over: Partial<RunAgentOptions> & { streaming?: boolean } = {}): {
  events: AgentEvent[];
  done: ReturnType<typeof runAgent>;
} {
  const events: AgentEvent[] = [];
  const { streaming, ...rest } = over;
  const signal = rest.signal ?? new AbortController().signal;
  const done = runAgent({
    provider: new AnthropicProvider({
      apiKey: fake.apiKey,
      baseURL: fake.baseURL,
      model: 'claude-test',
      streaming: streaming ?? true,
    }),
    registry,
    ctx: { projectRoot: project, additionalDirectories: [], signal },
    agentMode: 'chat',
    task: 'look at the project',
    maxTurns: 10,
    beforeToolCall: allowAll,
    onEvent: (e) => events.push(AgentEventSchema.parse(e)),
    signal,
    ...rest,
  });
  return { events, done };
}

/** The tool_result blocks of the last user message the model was sent in request `n`. */
function sentToolResults(body: FakeRequestBody): Array<Record<string, unknown>> {
  const last = body.messages[body.messages.length - 1]!;
  return Array.isArray(last.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
}

describe('agent runner through the real SDK', () => {
  it.each([true, false])(
    'round trip (streaming %s): the model reads a file, gets its content, answers',
    async (streaming) => {
      fs.writeFileSync(path.join(project, 'notes.txt'), 'the secret word is pineapple\n');
      fake.enqueue(
        reply(text('Reading it.'), toolUse('toolu_1', 'read_file', { path: 'notes.txt' })),
        reply(text('The word is pineapple.')),
      );
      const { events, done } = run({ streaming });
      const result = await done;
      expect(result.status).toBe('completed');
      expect(result.finalText).toBe('The word is pineapple.');
      expect(fake.requests).toHaveLength(2);
      const [res] = sentToolResults(fake.requests[1]!.body);
      expect(res).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: false });
      expect(String(res!.content)).toContain('the secret word is pineapple');
      // The assistant's tool call is replayed to the model as it was made.
      expect(fake.requests[1]!.body.messages[1]!.content).toEqual([
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } },
      ]);
      expect(events.filter((e) => e.type === 'turn_usage')).toHaveLength(2);
      expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 40 });
    },
  );

  it('a denied call comes back to the model as is_error with its source, rule and reason', async () => {
    fake.enqueue(
      reply(toolUse('toolu_push', 'run_command', { command: 'git push origin main' })),
      reply(text('Understood.')),
    );
    const asked: string[] = [];
    const { done } = run({
      beforeToolCall: async (call) => {
        asked.push(call.name);
        return {
          allow: false,
          source: 'user',
          rule: 'Bash(git push:*)',
          reason: 'pushing needs a person',
          alternative: 'Bash(git status)',
        };
      },
    });
    expect((await done).status).toBe('completed');
    expect(asked).toEqual(['run_command']);
    expect(sentToolResults(fake.requests[1]!.body)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_push',
        is_error: true,
        content: 'denied by user rule Bash(git push:*): pushing needs a person\nAllowed instead: Bash(git status)',
      },
    ]);
  });

  it('plan mode: only read-only tools offered, the reminder sent, a forged write_file never runs', async () => {
    fake.enqueue(
      reply(toolUse('toolu_forged', 'write_file', { path: 'pwned.txt', content: 'owned' })),
      reply(text('Here is the plan.')),
    );
    // main would deny this (agent-mode); allow it here to prove the execution gate holds anyway.
    const { done } = run({ agentMode: 'plan' });
    const result = await done;
    expect(result.status).toBe('completed');
    expect(fs.existsSync(path.join(project, 'pwned.txt'))).toBe(false);
    const first = fake.requests[0]!.body;
    expect(first.tools?.map((t) => t.name).sort()).toEqual(['find_files', 'read_file', 'search_code']);
    expect(JSON.stringify(first.messages[0])).toContain('<reminder>You are in plan mode');
    const [refused] = sentToolResults(fake.requests[1]!.body);
    expect(refused).toMatchObject({ tool_use_id: 'toolu_forged', is_error: true });
    expect(String(refused!.content)).toContain('tool_not_allowed');
    // The registry's own gate refuses it too.
    const direct = await registry.execute(
      'write_file',
      { path: 'pwned.txt', content: 'owned' },
      { projectRoot: project, additionalDirectories: [], signal: new AbortController().signal },
      { agentMode: 'plan' },
    );
    expect(direct).toMatchObject({ isError: true, content: expect.stringContaining('tool_not_allowed') });
    expect(fs.existsSync(path.join(project, 'pwned.txt'))).toBe(false);
  });

  it('malformed tool-call JSON becomes an is_error tool result (schema), no crash, nothing runs', async () => {
    fs.writeFileSync(path.join(project, 'a.txt'), 'A');
    fake.enqueue(
      {
        kind: 'message',
        stopReason: 'tool_use',
        content: [
          { type: 'tool_use', id: 'toolu_bad', name: 'write_file', rawJson: '{"path": "a.txt", "content": "ov' },
        ],
      },
      reply(text('Sorry.')),
    );
    let asked = 0;
    const { events, done } = run({
      beforeToolCall: async () => {
        asked++;
        return { allow: true };
      },
    });
    expect((await done).status).toBe('completed');
    expect(asked).toBe(0);
    expect(fs.readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('A');
    const [bad] = sentToolResults(fake.requests[1]!.body);
    expect(bad).toMatchObject({ tool_use_id: 'toolu_bad', is_error: true });
    expect(String(bad!.content)).toMatch(/^denied by schema: the tool arguments are not valid JSON/);
    // Replayed with an empty object so the API accepts the history.
    expect(fake.requests[1]!.body.messages[1]!.content).toEqual([
      { type: 'tool_use', id: 'toolu_bad', name: 'write_file', input: {} },
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_call_decided', id: 'toolu_bad', allow: false, source: 'schema' }),
    );
  });

  it('cancel mid-stream: the run ends cancelled and the server sees the connection closed before the end', async () => {
    // 400 events 150 ms apart: a minute, twice the test's time limit, unless the cancel closes the stream.
    fake.enqueue({
      kind: 'message',
      content: [text('thinking very slowly about this for a long time '.repeat(17))],
      chunkSize: 2,
      eventDelayMs: 150,
    });
    const controller = new AbortController();
    const { events, done } = run({ signal: controller.signal });
    await expect.poll(() => events.some((e) => e.type === 'text_delta')).toBe(true);
    controller.abort();
    const result = await done;
    expect(result.status).toBe('cancelled');
    expect(events[events.length - 1]).toMatchObject({ type: 'cancelled' });
    await expect(fake.requests[0]!.outcome).resolves.toBe('client-closed');
  });

  it('429 with retry-after, then success: one turn, one answer', async () => {
    fake.enqueue(
      { kind: 'http-error', status: 429, errorType: 'rate_limit_error', headers: { 'retry-after': '1' } },
      reply(text('finally')),
    );
    const { done } = run();
    const result = await done;
    expect(result).toMatchObject({ status: 'completed', turns: 1, finalText: 'finally' });
    expect(fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('529 overloaded every time: the run ends with an error event, not a crash', async () => {
    const overloaded = {
      kind: 'http-error',
      status: 529,
      errorType: 'overloaded_error',
      headers: { 'retry-after-ms': '5' },
    } as const;
    for (let i = 0; i < 5; i++) fake.enqueue(overloaded);
    const { events, done } = run();
    const result = await done;
    expect(result.status).toBe('error');
    expect(events[events.length - 1]).toMatchObject({
      type: 'error',
      message: expect.stringContaining('overloaded_error'),
    });
  });

  it('trims old tool outputs with a visible marker when the conversation nears the context window', async () => {
    const big = (tag: string): string =>
      Array.from({ length: 300 }, (_, i) => `${tag} line ${i} ${'y'.repeat(30)}`).join('\n');
    fs.writeFileSync(path.join(project, 'one.txt'), big('one'));
    fs.writeFileSync(path.join(project, 'two.txt'), big('two'));
    fake.enqueue(
      reply(toolUse('t1', 'read_file', { path: 'one.txt' })),
      reply(toolUse('t2', 'read_file', { path: 'two.txt' })),
      reply(text('done')),
    );
    const { events, done } = run({ contextLimitTokens: 6_000 });
    expect((await done).status).toBe('completed');
    const third = fake.requests[2]!.body;
    const results = third.messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : [],
    );
    expect(String(results[0]!.content)).toMatch(/^\[tool output trimmed to save context: \d+ characters\]$/);
    expect(String(results[1]!.content)).toContain('two line 299');
    expect(events).toContainEqual(expect.objectContaining({ type: 'context_trimmed', turn: 3, trimmedResults: 1 }));
    // Nothing was trimmed before it was needed.
    expect(JSON.stringify(fake.requests[1]!.body)).not.toContain('tool output trimmed');
  });

  it('max-turns guard: stops after N model turns with a clear final event', async () => {
    fs.writeFileSync(path.join(project, 'loop.txt'), 'again');
    for (let i = 0; i < 4; i++) fake.enqueue(reply(toolUse(`t${i}`, 'read_file', { path: 'loop.txt' })));
    const { events, done } = run({ maxTurns: 2 });
    const result = await done;
    expect(result.status).toBe('max_turns');
    expect(fake.requests).toHaveLength(2);
    expect(events[events.length - 1]).toMatchObject({
      type: 'done',
      status: 'max_turns',
      message: expect.stringContaining('max-turns guard'),
    });
  });
});
