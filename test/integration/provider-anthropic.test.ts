import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnthropicProvider } from '../../src/worker/providers/anthropic';
import { CancelledError, ProviderError } from '../../src/worker/providers/errors';
import type { ProviderRequest } from '../../src/worker/providers/types';
import { reply, sentCredential, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';

// The real @anthropic-ai/sdk against a loopback Messages API server: streaming, tool use, retries, cancellation.

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await fake.close();
});

const request = (over: Partial<ProviderRequest> = {}): ProviderRequest => ({
  system: 'You are a test.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
  tools: [
    {
      name: 'read_file',
      description: 'Read a text file.',
      input_schema: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
  maxTokens: 1024,
  model: 'claude-test',
  ...over,
});

const provider = (over: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}): AnthropicProvider =>
  new AnthropicProvider({
    apiKey: fake.apiKey,
    baseURL: fake.baseURL,
    model: 'claude-test',
    streamRetryBaseDelayMs: 10,
    ...over,
  });

const never = new AbortController().signal;

describe('AnthropicProvider (streaming)', () => {
  it('streams text deltas, returns the whole content and the turn usage, sends key, model, system and tools', async () => {
    fake.enqueue({
      kind: 'message',
      content: [text('Hello there, how are you today?')],
      usage: { input_tokens: 321, output_tokens: 12 },
      chunkSize: 5,
    });
    const deltas: string[] = [];
    const result = await provider().stream(request(), { onText: (d) => deltas.push(d) }, never);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Hello there, how are you today?');
    expect(result.content).toEqual([{ type: 'text', text: 'Hello there, how are you today?' }]);
    expect(result.stopReason).toBe('end_turn');
    expect(result.usage).toEqual({ inputTokens: 321, outputTokens: 12 });
    const sent = fake.requests[0]!;
    expect(sentCredential(sent.headers)).toBe(fake.apiKey);
    expect(sent.body).toMatchObject({
      model: 'claude-test',
      max_tokens: 1024,
      stream: true,
      system: 'You are a test.',
    });
    expect(sent.body.tools?.map((t) => t.name)).toEqual(['read_file']);
  });

  it('accumulates input_json_delta into the tool input and reports the tool call start', async () => {
    const input = { path: 'src/deeply/nested/file name with spaces.ts', offset: 10, limit: 20 };
    fake.enqueue({ ...reply(text('Let me look.'), toolUse('toolu_1', 'read_file', input)), chunkSize: 3 });
    const started: string[] = [];
    const result = await provider().stream(
      request(),
      { onText: () => undefined, onToolUseStart: (c) => started.push(`${c.id}:${c.name}`) },
      never,
    );
    expect(started).toEqual(['toolu_1:read_file']);
    expect(result.stopReason).toBe('tool_use');
    expect(result.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input },
    ]);
  });

  it('turns malformed tool-call JSON into an inputError on that call, not a crash', async () => {
    fake.enqueue({
      kind: 'message',
      stopReason: 'tool_use',
      content: [
        { type: 'tool_use', id: 'toolu_bad', name: 'read_file', rawJson: '{"path": "a.txt", ' },
        { type: 'tool_use', id: 'toolu_arr', name: 'read_file', rawJson: '["a.txt"]' },
        toolUse('toolu_ok', 'read_file', { path: 'b.txt' }),
      ],
    });
    const result = await provider().stream(request(), { onText: () => undefined }, never);
    const [bad, arr, ok] = result.content;
    expect(bad).toMatchObject({ type: 'tool_use', id: 'toolu_bad', input: {} });
    expect(bad?.type === 'tool_use' && bad.inputError).toMatch(/not valid JSON/);
    expect(arr?.type === 'tool_use' && arr.inputError).toMatch(/must be a JSON object/);
    expect(ok).toEqual({ type: 'tool_use', id: 'toolu_ok', name: 'read_file', input: { path: 'b.txt' } });
  });

  it('replays the conversation with tool_use and tool_result blocks in the API shape', async () => {
    fake.enqueue(reply(text('done')));
    await provider().stream(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'read a.txt' }] },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: {}, inputError: 'bad json' }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'denied', is_error: true }] },
        ],
      }),
      { onText: () => undefined },
      never,
    );
    const messages = fake.requests[0]!.body.messages;
    expect(messages[1]!.content).toEqual([{ type: 'tool_use', id: 't1', name: 'read_file', input: {} }]);
    expect(messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'denied', is_error: true },
    ]);
  });
});

describe('AnthropicProvider (JSON mode)', () => {
  it('asks for one JSON message and returns text and tool calls', async () => {
    fake.enqueue({
      ...reply(text('Reading.'), toolUse('toolu_9', 'read_file', { path: 'x' })),
      usage: { input_tokens: 7, output_tokens: 3 },
    });
    const deltas: string[] = [];
    const result = await provider({ streaming: false }).stream(request(), { onText: (d) => deltas.push(d) }, never);
    expect(fake.requests[0]!.body.stream).toBeFalsy();
    expect(deltas).toEqual(['Reading.']);
    expect(result.content[1]).toEqual({ type: 'tool_use', id: 'toolu_9', name: 'read_file', input: { path: 'x' } });
    expect(result).toMatchObject({ stopReason: 'tool_use', usage: { inputTokens: 7, outputTokens: 3 } });
  });
});

describe('AnthropicProvider retries', () => {
  it('retries a 429 after the retry-after delay, then succeeds', async () => {
    fake.enqueue(
      { kind: 'http-error', status: 429, errorType: 'rate_limit_error', headers: { 'retry-after': '1' } },
      reply(text('ok after 429')),
    );
    const result = await provider().stream(request(), { onText: () => undefined }, never);
    expect(result.content).toEqual([{ type: 'text', text: 'ok after 429' }]);
    expect(fake.requests).toHaveLength(2);
    const waited = fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(950); // the delay asked for was honoured (a lower bound: load only adds)
    expect(fake.requests[1]!.headers['x-stainless-retry-count']).toBe('1');
  });

  it('retries a 529 overloaded_error and a 500, then succeeds', async () => {
    fake.enqueue(
      { kind: 'http-error', status: 529, errorType: 'overloaded_error', headers: { 'retry-after-ms': '20' } },
      { kind: 'http-error', status: 500, errorType: 'api_error', headers: { 'retry-after-ms': '20' } },
      reply(text('ok after overload')),
    );
    const result = await provider().stream(request(), { onText: () => undefined }, never);
    expect(result.content).toEqual([{ type: 'text', text: 'ok after overload' }]);
    expect(fake.requests).toHaveLength(3);
  });

  it('retries an overloaded_error that arrives inside the SSE stream before anything was delivered', async () => {
    fake.enqueue({ kind: 'stream-error', errorType: 'overloaded_error' }, reply(text('second try')));
    const deltas: string[] = [];
    const result = await provider().stream(request(), { onText: (d) => deltas.push(d) }, never);
    expect(deltas.join('')).toBe('second try');
    expect(result.content).toEqual([{ type: 'text', text: 'second try' }]);
    expect(fake.requests).toHaveLength(2);
  });

  it('does not retry an in-stream error after text was delivered (it would repeat it): a ProviderError', async () => {
    fake.enqueue(
      { kind: 'stream-error', errorType: 'overloaded_error', before: [text('partial')] },
      reply(text('never')),
    );
    const err = await provider()
      .stream(request(), { onText: () => undefined }, never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).errorType).toBe('overloaded_error');
    expect(fake.requests).toHaveLength(1);
  });

  it('a stream cut off before message_stop is retried when nothing was delivered, else a ProviderError', async () => {
    fake.enqueue({ ...reply(text('lost')), cutAfterEvents: 2 }, reply(text('complete')));
    const result = await provider().stream(request(), { onText: () => undefined }, never);
    expect(result.content).toEqual([{ type: 'text', text: 'complete' }]);
    fake.enqueue({ ...reply(text('half an answer')), cutAfterEvents: 5 }, reply(text('never')));
    const err = await provider()
      .stream(request(), { onText: () => undefined }, never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/ended before message_stop/);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a ProviderError naming the status', async () => {
    const overloaded = {
      kind: 'http-error',
      status: 529,
      errorType: 'overloaded_error',
      headers: { 'retry-after-ms': '5' },
    } as const;
    fake.enqueue(overloaded, overloaded, overloaded);
    const err = await provider({ maxRetries: 2 })
      .stream(request(), { onText: () => undefined }, never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(529);
    expect((err as Error).message).toMatch(/529.*overloaded_error/);
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a 400 and does not leak the key in the error', async () => {
    fake.enqueue(
      { kind: 'http-error', status: 400, errorType: 'invalid_request_error', message: 'messages: bad' },
      reply(text('never')),
    );
    const err = await provider()
      .stream(request(), { onText: () => undefined }, never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toContain('messages: bad');
    expect((err as Error).message).not.toContain(fake.apiKey);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('AnthropicProvider cancellation', () => {
  it('cancels mid-stream: rejects with CancelledError and the server sees the connection closed before the end', async () => {
    // 300 events 200 ms apart: a minute, twice the test's time limit, unless the cancel closes the stream.
    fake.enqueue({
      kind: 'message',
      content: [text('a slow answer that takes a long while to arrive '.repeat(13))],
      chunkSize: 2,
      eventDelayMs: 200,
    });
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = provider().stream(request(), { onText: (d) => deltas.push(d) }, controller.signal);
    await expect.poll(() => deltas.length).toBeGreaterThanOrEqual(2);
    controller.abort();
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    await expect(fake.requests[0]!.outcome).resolves.toBe('client-closed');
  });

  it('cancels while waiting out a retry-after delay', async () => {
    // 50 s: longer than the test's time limit, unless the cancel ends the wait.
    fake.enqueue(
      { kind: 'http-error', status: 429, errorType: 'rate_limit_error', headers: { 'retry-after': '50' } },
      reply(text('never')),
    );
    // The SDK's own fetch (the global one, taken when the client is made), watched: once it has handed over the 429,
    // the client is waiting out the retry-after.
    const fetched = vi.spyOn(globalThis, 'fetch');
    try {
      const controller = new AbortController();
      const pending = provider().stream(request(), { onText: () => undefined }, controller.signal);
      await expect
        .poll(() => fetched.mock.settledResults[0])
        .toMatchObject({ type: 'fulfilled', value: { status: 429 } });
      controller.abort();
      await expect(pending).rejects.toBeInstanceOf(CancelledError);
      expect(fake.requests).toHaveLength(1);
    } finally {
      fetched.mockRestore();
    }
  });

  it('rejects at once when the signal is already aborted, without a request', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider().stream(request(), { onText: () => undefined }, controller.signal)).rejects.toBeInstanceOf(
      CancelledError,
    );
    expect(fake.requests).toHaveLength(0);
  });
});

describe('AnthropicProvider configuration', () => {
  it('refuses to start without a key and never reads ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL itself', async () => {
    expect(() => new AnthropicProvider({ apiKey: '', model: 'm' })).toThrow(/API key/);
    const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
    process.env.ANTHROPIC_API_KEY = 'sk-from-env-must-not-be-used';
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';
    try {
      fake.enqueue(reply(text('ok')));
      await provider().stream(request(), { onText: () => undefined }, never);
      expect(sentCredential(fake.requests[0]!.headers)).toBe(fake.apiKey);
    } finally {
      restoreEnv('ANTHROPIC_API_KEY', saved.key);
      restoreEnv('ANTHROPIC_BASE_URL', saved.url);
    }
  });
});

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
