import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server speaking the Anthropic Messages API (POST /v1/messages), scripted per test with a queue of
 * responses. It answers SSE when the request asks `stream: true` and one JSON message otherwise, so the real
 * `@anthropic-ai/sdk` can be driven end to end without any network.
 */

export type FakeBlock =
  | { type: 'text'; text: string }
  /** `rawJson` is sent as the streamed arguments verbatim (e.g. malformed JSON); otherwise `input` is serialised. */
  | { type: 'tool_use'; id: string; name: string; input?: unknown; rawJson?: string };

export type FakeResponse =
  | {
      kind: 'message';
      content: FakeBlock[];
      stopReason?: string;
      usage?: { input_tokens: number; output_tokens: number };
      /** Pause between SSE events (slow stream). */
      eventDelayMs?: number;
      /** Characters per text / JSON delta. */
      chunkSize?: number;
      /** End the response cleanly after this many SSE events (a cut-off stream, no message_stop). */
      cutAfterEvents?: number;
      /**
       * Runs when the request this answers arrives, before anything is sent: the agent is waiting for its model, so
       * a test can act as a person at that moment of the run (edit a file between two tool calls).
       */
      onRequest?: () => void;
    }
  | { kind: 'http-error'; status: number; errorType: string; message?: string; headers?: Record<string, string> }
  /** HTTP 200, an SSE stream that carries an `error` event (e.g. overloaded_error) after `before` blocks. */
  | { kind: 'stream-error'; errorType: string; message?: string; before?: FakeBlock[] }
  /** Never answers (until the client hangs up): a model that does not answer in time. */
  | { kind: 'hang' };

export type FakeMessage = Extract<FakeResponse, { kind: 'message' }>;

export interface FakeRequestBody {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string | Array<Record<string, unknown> & { type: string }> }>;
  tools?: Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>;
}

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: FakeRequestBody;
  receivedAt: number;
  /** Resolves when the exchange ends: `completed` when the server finished, `client-closed` when the client hung up. */
  outcome: Promise<'completed' | 'client-closed'>;
}

export interface FakeAnthropic {
  baseURL: string;
  apiKey: string;
  requests: RecordedRequest[];
  enqueue(...responses: FakeResponse[]): void;
  /**
   * Responses for requests naming `model` only (e.g. auto mode's classifier beside the agent): once a model has a
   * queue of its own, its requests never take from the main queue.
   */
  enqueueFor(model: string, ...responses: FakeResponse[]): void;
  /** Responses still waiting in the queues. */
  pending(): number;
  close(): Promise<void>;
}

export const text = (value: string): FakeBlock => ({ type: 'text', text: value });
export const toolUse = (id: string, name: string, input: unknown): FakeBlock => ({ type: 'tool_use', id, name, input });
/** A complete answer; stop reason `tool_use` when it calls a tool, else `end_turn`. */
export const reply = (...content: FakeBlock[]): FakeMessage => ({
  kind: 'message',
  content,
  stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
});

/** The credential the client sent: `x-api-key`, or an `Authorization: Bearer` token (the SDK version decides). */
export function sentCredential(headers: http.IncomingHttpHeaders): string | undefined {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string') return apiKey;
  const auth = headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
}

// eslint-disable-next-line tests/no-fixed-sleep -- a slow model (eventDelayMs, a response's pauses) is what tests ask for
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface FakeAnthropicOptions {
  apiKey?: string;
  /** Serve HTTPS with this key and certificate (PEM), as a TLS-inspecting proxy would (test/support/test-ca.ts). */
  tls?: { key: string; cert: string };
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const apiKey = options.apiKey ?? 'sk-ant-test-fake-key';
  const queue: FakeResponse[] = [];
  const byModel = new Map<string, FakeResponse[]>();
  const requests: RecordedRequest[] = [];
  let messageSeq = 0;

  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let settle: (value: 'completed' | 'client-closed') => void = () => undefined;
      const outcome = new Promise<'completed' | 'client-closed'>((resolve) => (settle = resolve));
      res.on('close', () => settle(res.writableFinished ? 'completed' : 'client-closed'));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeRequestBody;
      requests.push({ path: req.url ?? '', headers: req.headers, body, receivedAt: Date.now(), outcome });
      const next = (byModel.get(body.model) ?? queue).shift();
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        sendError(res, 404, 'not_found_error', `fake server: no route ${req.method} ${req.url}`, {
          'x-should-retry': 'false',
        });
      } else if (!next) {
        sendError(res, 500, 'api_error', 'fake server: no scripted response left', { 'x-should-retry': 'false' });
      } else {
        if (next.kind === 'message') next.onRequest?.();
        void respond(res, next, body, `msg_fake_${++messageSeq}`);
      }
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    apiKey,
    requests,
    enqueue: (...responses) => void queue.push(...responses),
    enqueueFor: (model, ...responses) => {
      const own = byModel.get(model) ?? [];
      own.push(...responses);
      byModel.set(model, own);
    },
    pending: () => [...byModel.values()].reduce((n, q) => n + q.length, queue.length),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendError(
  res: http.ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

async function respond(
  res: http.ServerResponse,
  response: FakeResponse,
  body: FakeRequestBody,
  id: string,
): Promise<void> {
  if (response.kind === 'hang') return; // the client's timeout or cancel ends the exchange
  if (response.kind === 'http-error') {
    sendError(res, response.status, response.errorType, response.message ?? response.errorType, response.headers);
    return;
  }
  const content = response.kind === 'message' ? response.content : (response.before ?? []);
  const usage =
    response.kind === 'message' && response.usage ? response.usage : { input_tokens: 100, output_tokens: 20 };
  const stopReason = response.kind === 'message' ? (response.stopReason ?? 'end_turn') : null;
  if (!body.stream) {
    if (response.kind === 'stream-error') {
      sendError(res, 529, response.errorType, response.message ?? response.errorType);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...messageShell(id, body.model, usage),
        content: content.map(wholeBlock),
        stop_reason: stopReason,
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const delayMs = response.kind === 'message' ? (response.eventDelayMs ?? 0) : 0;
  const chunkSize = response.kind === 'message' ? (response.chunkSize ?? 8) : 8;
  const send = async (event: string, data: unknown): Promise<boolean> => {
    if (res.destroyed || res.writableEnded) return false;
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (delayMs > 0) await sleep(delayMs);
    return !res.destroyed;
  };

  const events: Array<[string, unknown]> = [];
  events.push([
    'message_start',
    {
      type: 'message_start',
      message: {
        ...messageShell(id, body.model, { input_tokens: usage.input_tokens, output_tokens: 1 }),
        content: [],
        stop_reason: null,
      },
    },
  ]);
  events.push(['ping', { type: 'ping' }]);
  content.forEach((block, index) => events.push(...blockEvents(block, index, chunkSize)));
  if (response.kind === 'stream-error') {
    events.push([
      'error',
      { type: 'error', error: { type: response.errorType, message: response.message ?? response.errorType } },
    ]);
  } else {
    events.push([
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
    ]);
    events.push(['message_stop', { type: 'message_stop' }]);
  }
  const cut = response.kind === 'message' ? (response.cutAfterEvents ?? events.length) : events.length;
  for (const [event, data] of events.slice(0, cut)) {
    if (!(await send(event, data))) return;
  }
  res.end();
}

function messageShell(
  id: string,
  model: string,
  usage: { input_tokens: number; output_tokens: number },
): Record<string, unknown> {
  return { id, type: 'message', role: 'assistant', model, stop_sequence: null, usage };
}

function wholeBlock(block: FakeBlock): Record<string, unknown> {
  if (block.type === 'text') return { type: 'text', text: block.text };
  return { type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} };
}

function blockEvents(block: FakeBlock, index: number, chunkSize: number): Array<[string, unknown]> {
  const events: Array<[string, unknown]> = [];
  if (block.type === 'text') {
    events.push([
      'content_block_start',
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    ]);
    for (const piece of chunk(block.text, chunkSize)) {
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
      ]);
    }
  } else {
    events.push([
      'content_block_start',
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      },
    ]);
    const json = block.rawJson ?? JSON.stringify(block.input ?? {});
    for (const piece of chunk(json, chunkSize)) {
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
      ]);
    }
  }
  events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  return events;
}

function chunk(value: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < value.length; i += size) pieces.push(value.slice(i, i + size));
  return pieces;
}
