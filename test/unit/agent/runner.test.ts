import { describe, expect, it } from 'vitest';
import type { ConversationMessage, ToolResultBlock } from '../../../src/shared/conversation';
import { PLAN_REMINDER } from '../../../src/worker/agent/prompts';
import { runAgent } from '../../../src/worker/agent/runner';
import type { BeforeToolCall, RunAgentOptions, ToolCallRequest } from '../../../src/worker/agent/runner';
import { CancelledError, ProviderError } from '../../../src/worker/providers/errors';
import { RecordingRegistry, ScriptedProvider, answer, call, eventLog, say, toolContext } from './helpers';

const allowAll: BeforeToolCall = async () => ({ allow: true, source: 'mode', reason: 'allowed' });

function options(
  provider: ScriptedProvider,
  registry: RecordingRegistry,
  over: Partial<RunAgentOptions> = {},
): RunAgentOptions & { events: ReturnType<typeof eventLog>['events'] } {
  const log = eventLog();
  return {
    provider,
    registry,
    ctx: toolContext(),
    agentMode: 'chat',
    task: 'do the thing',
    maxTurns: 10,
    beforeToolCall: allowAll,
    onEvent: log.onEvent,
    signal: new AbortController().signal,
    events: log.events,
    ...over,
  };
}

function toolResults(message: ConversationMessage | undefined): ToolResultBlock[] {
  return (message?.content ?? []).filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

/** Every tool_use in the conversation has a tool_result in the next message. */
function expectValidConversation(conversation: ConversationMessage[]): void {
  conversation.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    if (ids.length === 0) return;
    expect(toolResults(conversation[i + 1]).map((r) => r.tool_use_id)).toEqual(ids);
  });
}

describe('runAgent: the loop', () => {
  it('answers without tools in one turn and reports usage and done', async () => {
    const provider = new ScriptedProvider().push(answer(say('hello')));
    const opts = options(provider, new RecordingRegistry());
    const result = await runAgent(opts);
    expect(result).toMatchObject({
      status: 'completed',
      turns: 1,
      finalText: 'hello',
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    expect(opts.events.map((e) => e.type)).toEqual(['turn_started', 'text_delta', 'turn_usage', 'done']);
    expect(provider.requests[0]!.model).toBe('scripted-model');
    expect(provider.requests[0]!.messages[0]!.content).toEqual([{ type: 'text', text: 'do the thing' }]);
  });

  it('runs consecutive read-only calls in parallel and writes/commands one at a time, in order', async () => {
    const registry = new RecordingRegistry();
    registry.delays = { read_file: 150, search_code: 150, write_file: 100, run_command: 100 };
    const provider = new ScriptedProvider().push(
      answer(
        call('r1', 'read_file', { path: 'a' }),
        call('r2', 'search_code', { pattern: 'x' }),
        call('w1', 'write_file', { path: 'b', content: '' }),
        call('c1', 'run_command', { command: 'ls' }),
        call('r3', 'read_file', { path: 'c' }),
      ),
      answer(say('done')),
    );
    const result = await runAgent(options(provider, registry));
    expect(result.status).toBe('completed');
    const at = (name: string, index = 0) => registry.runs.filter((r) => r.name === name)[index]!;
    // r1 and r2 overlap: one started while the other was running
    expect([...at('read_file').runningAtStart, ...at('search_code').runningAtStart]).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(read_file|search_code)$/)]),
    );
    // the write, the command and the last read each ran alone
    expect(at('write_file').runningAtStart).toEqual([]);
    expect(at('run_command').runningAtStart).toEqual([]);
    expect(at('read_file', 1).runningAtStart).toEqual([]);
    // the write starts after both reads ended, the command after the write, the last read after the command
    expect(at('write_file').start).toBeGreaterThanOrEqual(Math.max(at('read_file').end, at('search_code').end));
    expect(at('run_command').start).toBeGreaterThanOrEqual(at('write_file').end);
    expect(at('read_file', 1).start).toBeGreaterThanOrEqual(at('run_command').end);
    // results come back in the model's order
    expect(toolResults(result.conversation[2]).map((r) => r.tool_use_id)).toEqual(['r1', 'r2', 'w1', 'c1', 'r3']);
    expectValidConversation(result.conversation);
  });

  it('sends a denied call back as is_error with source, rule, reason and the alternative, and does not run it', async () => {
    const registry = new RecordingRegistry();
    const seen: ToolCallRequest[] = [];
    const provider = new ScriptedProvider().push(
      answer(call('c1', 'run_command', { command: 'git push --force' })),
      answer(say('ok, I will not push')),
    );
    const opts = options(provider, registry, {
      beforeToolCall: async (c) => {
        seen.push(c);
        return {
          allow: false,
          source: 'user',
          rule: 'Bash(git push:*)',
          reason: 'pushing is not allowed',
          alternative: 'Bash(git status)',
        };
      },
    });
    const result = await runAgent(opts);
    expect(registry.runs).toHaveLength(0);
    expect(seen).toEqual([
      { id: 'c1', name: 'run_command', input: { command: 'git push --force' }, position: { index: 1, count: 1 } },
    ]);
    const [denied] = toolResults(provider.requests[1]!.messages[2]);
    expect(denied).toEqual({
      type: 'tool_result',
      tool_use_id: 'c1',
      is_error: true,
      content: 'denied by user rule Bash(git push:*): pushing is not allowed\nAllowed instead: Bash(git status)',
    });
    expect(result.status).toBe('completed');
    expect(opts.events).toContainEqual({
      type: 'tool_call_decided',
      id: 'c1',
      allow: false,
      source: 'user',
      reason: 'pushing is not allowed',
      rule: 'Bash(git push:*)',
    });
  });

  it("a decision its decider already announced (main's gate) is not reported again; the call still runs or not by it", async () => {
    const registry = new RecordingRegistry();
    const provider = new ScriptedProvider().push(
      answer(call('a1', 'read_file', { path: 'x.txt' }), call('a2', 'run_command', { command: 'git push' })),
      answer(say('done')),
    );
    const opts = options(provider, registry, {
      beforeToolCall: async (c) =>
        c.id === 'a1'
          ? { allow: true, source: 'user', reason: 'ok', announced: true }
          : { allow: false, source: 'hard', reason: 'no', announced: true },
    });
    await runAgent(opts);
    expect(opts.events.filter((e) => e.type === 'tool_call_decided')).toEqual([]);
    expect(registry.runs.map((r) => r.name)).toEqual(['read_file']);
    expect(
      opts.events
        .filter((e) => e.type === 'tool_call_finished')
        .map((e) => e.type === 'tool_call_finished' && [e.id, e.ran]),
    ).toEqual([
      ['a1', true],
      ['a2', false],
    ]);
  });

  it('attaches the write preview to the permission request and the started event', async () => {
    const seen: ToolCallRequest[] = [];
    const provider = new ScriptedProvider().push(
      answer(call('w1', 'write_file', { path: 'src/a.ts', content: 'x' })),
      answer(say('written')),
    );
    const opts = options(provider, new RecordingRegistry(), {
      beforeToolCall: async (c) => {
        seen.push(c);
        return { allow: true };
      },
    });
    await runAgent(opts);
    expect(seen[0]!.preview).toEqual({ kind: 'diff', path: 'src/a.ts', unifiedDiff: '--- src/a.ts\n+++ src/a.ts\n' });
    expect(opts.events.find((e) => e.type === 'tool_call_started')).toMatchObject({
      id: 'w1',
      safety: 'write',
      preview: { path: 'src/a.ts' },
    });
    expect(opts.events).toContainEqual({ type: 'tool_call_output', id: 'w1', chunk: 'output of write_file' });
  });

  it('a permission check that fails denies the call (source internal), never runs it', async () => {
    const registry = new RecordingRegistry();
    const provider = new ScriptedProvider().push(
      answer(call('c1', 'run_command', { command: 'ls' })),
      answer(say('ok')),
    );
    const result = await runAgent(
      options(provider, registry, {
        beforeToolCall: async () => {
          throw new Error('worker port closed');
        },
      }),
    );
    expect(registry.runs).toHaveLength(0);
    expect(toolResults(result.conversation[2])[0]!.content).toMatch(
      /^denied by internal: the permission check failed.*worker port closed/,
    );
  });

  it('refuses a call whose arguments did not parse (schema), without asking main or running it', async () => {
    const registry = new RecordingRegistry();
    let asked = 0;
    const provider = new ScriptedProvider().push(
      answer({
        type: 'tool_use',
        id: 'bad',
        name: 'read_file',
        input: {},
        inputError: 'the tool arguments are not valid JSON (Unexpected end)',
      }),
      answer(say('sorry')),
    );
    const result = await runAgent(
      options(provider, registry, {
        beforeToolCall: async () => {
          asked++;
          return { allow: true };
        },
      }),
    );
    expect(asked).toBe(0);
    expect(registry.runs).toHaveLength(0);
    expect(toolResults(result.conversation[2])[0]).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/^denied by schema: the tool arguments are not valid JSON/),
    });
  });

  it('stops at the max-turns guard with a clear final event and a conversation that is still valid', async () => {
    const provider = new ScriptedProvider();
    for (let i = 0; i < 5; i++) provider.push(answer(call(`r${i}`, 'read_file', { path: `f${i}` })));
    const registry = new RecordingRegistry();
    const opts = options(provider, registry, { maxTurns: 3 });
    const result = await runAgent(opts);
    expect(result.status).toBe('max_turns');
    expect(result.turns).toBe(3);
    expect(provider.requests).toHaveLength(3);
    expect(registry.runs).toHaveLength(2); // the third turn's call is not run
    const last = opts.events[opts.events.length - 1]!;
    expect(last).toMatchObject({ type: 'done', status: 'max_turns', turns: 3 });
    expect(last.type === 'done' && last.message).toMatch(/max-turns guard/);
    expect(toolResults(result.conversation[result.conversation.length - 1])[0]!.content).toMatch(/max-turns guard/);
    expectValidConversation(result.conversation);
  });

  it('reports a model failure as status error with an error event', async () => {
    const provider = new ScriptedProvider().push(
      new ProviderError('the model API answered 529 (overloaded_error): busy', { status: 529 }),
    );
    const opts = options(provider, new RecordingRegistry());
    const result = await runAgent(opts);
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/529/);
    expect(opts.events[opts.events.length - 1]).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/overloaded/),
    });
  });
});

describe('runAgent: agent modes', () => {
  it('plan: wraps the task, sends only read-only tools, reminds on turns 1, 5, 9', async () => {
    const provider = new ScriptedProvider();
    for (let i = 0; i < 9; i++) provider.push(answer(call(`r${i}`, 'read_file', { path: `f${i}` })));
    provider.push(answer(say('the plan')));
    const result = await runAgent(options(provider, new RecordingRegistry(), { agentMode: 'plan', maxTurns: 20 }));
    expect(result.status).toBe('completed');
    expect(provider.requests).toHaveLength(10);
    for (const req of provider.requests)
      expect(req.tools.map((t) => t.name)).toEqual(['read_file', 'find_files', 'search_code']);
    const first = provider.requests[0]!.messages[0]!.content;
    expect(first[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/Produce a plan[\s\S]*Do not change anything[\s\S]*do the thing/),
    });
    expect(provider.requests[0]!.system).toMatch(/plan mode/);
    const remindedTurns = provider.requests.flatMap((req, i) => {
      const lastUser = req.messages[req.messages.length - 1]!;
      return lastUser.content.some((b) => b.type === 'text' && b.text === PLAN_REMINDER) ? [i + 1] : [];
    });
    expect(remindedTurns).toEqual([1, 5, 9]);
  });

  it('plan: a forged write_file is refused at execution even when allowed and even if the registry gate is broken', async () => {
    const registry = new RecordingRegistry();
    registry.gateBroken = true;
    const provider = new ScriptedProvider().push(
      answer(call('w1', 'write_file', { path: 'x', content: 'pwned' })),
      answer(say('plan')),
    );
    const result = await runAgent(options(provider, registry, { agentMode: 'plan' }));
    expect(registry.runs).toHaveLength(0);
    const [refused] = toolResults(provider.requests[1]!.messages[2]);
    expect(refused).toMatchObject({
      tool_use_id: 'w1',
      is_error: true,
      content: expect.stringContaining('tool_not_allowed'),
    });
    expect(result.status).toBe('completed');
  });

  it('do: the original task plus the confirmed plan, all tools offered', async () => {
    const provider = new ScriptedProvider().push(answer(say('done')));
    await runAgent(options(provider, new RecordingRegistry(), { agentMode: 'do', plan: '1. edit a.ts\n2. run tests' }));
    const text = provider.requests[0]!.messages[0]!.content[0];
    expect(text).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/do the thing[\s\S]*<plan>\n1\. edit a\.ts\n2\. run tests\n<\/plan>/),
    });
    expect(provider.requests[0]!.tools.map((t) => t.name)).toContain('write_file');
  });

  it('an allow-list filters the definitions and gates execution', async () => {
    const registry = new RecordingRegistry();
    const provider = new ScriptedProvider().push(
      answer(call('c1', 'run_command', { command: 'ls' })),
      answer(say('ok')),
    );
    const result = await runAgent(options(provider, registry, { allowList: ['read_file'] }));
    expect(provider.requests[0]!.tools.map((t) => t.name)).toEqual(['read_file']);
    expect(registry.runs).toHaveLength(0);
    expect(toolResults(result.conversation[2])[0]!.content).toMatch(/^tool_not_allowed/);
  });

  it('continues a history (chat follow-up)', async () => {
    const history: ConversationMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
    ];
    const provider = new ScriptedProvider().push(answer(say('second answer')));
    const result = await runAgent(options(provider, new RecordingRegistry(), { history, task: 'second' }));
    expect(provider.requests[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(result.conversation).toHaveLength(4);
    expect(history).toHaveLength(2); // not mutated
  });
});

describe('runAgent: cancellation', () => {
  it('cancel while main is deciding a call: status cancelled, nothing runs, every tool_use answered', async () => {
    const controller = new AbortController();
    const registry = new RecordingRegistry();
    const provider = new ScriptedProvider().push(answer(call('w1', 'write_file', { path: 'a', content: '' })));
    const opts = options(provider, registry, {
      signal: controller.signal,
      beforeToolCall: () => {
        queueMicrotask(() => controller.abort()); // cancelled while main decides
        return new Promise(() => undefined); // the person never answers
      },
    });
    // The person never answers: without the cancel the run would never end (the test's limit catches it).
    const result = await runAgent(opts);
    expect(result.status).toBe('cancelled');
    expect(registry.runs).toHaveLength(0);
    expect(opts.events[opts.events.length - 1]).toMatchObject({ type: 'cancelled' });
    expectValidConversation(result.conversation);
  });

  it('cancel during the model call: status cancelled with the cancelled event', async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider().push(
      (_req, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new CancelledError()));
          queueMicrotask(() => controller.abort()); // cancelled while the model answers
        }),
    );
    const opts = options(provider, new RecordingRegistry(), { signal: controller.signal });
    const result = await runAgent(opts);
    expect(result.status).toBe('cancelled');
    expect(opts.events.map((e) => e.type)).toEqual(['turn_started', 'cancelled']);
  });
});

describe('runAgent: resuming', () => {
  it('answers calls left without a result by an interrupted session, in the same user turn as the new task', async () => {
    const history: ConversationMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'lost', name: 'run_command', input: { command: 'make' } }],
      },
    ];
    const registry = new RecordingRegistry();
    const provider = new ScriptedProvider().push(answer(say('resumed')));
    const result = await runAgent(options(provider, registry, { history, task: 'go on' }));
    const sent = provider.requests[0]!.messages;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent[2]!.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'lost',
      is_error: true,
      content: expect.stringContaining('interrupted'),
    });
    expect(sent[2]!.content[1]).toEqual({ type: 'text', text: 'go on' });
    expect(registry.runs).toHaveLength(0);
    expectValidConversation(result.conversation);
  });
});
