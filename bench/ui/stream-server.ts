import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StreamServerOptions {
  tokensPerSecond: number;
  durationMs: number;
  apiKey: string;
}

export interface StreamServer {
  baseURL: string;
  /** Text tokens (one SSE text delta each) sent so far, over every request. */
  tokensSent(): number;
  close(): Promise<void>;
}

const TICK_MS = 10;
const VOCAB = [
  'the',
  'engine',
  'decides',
  'every',
  'call',
  'before',
  'the',
  'worker',
  'runs',
  'it',
  'and',
  'a',
  'rule',
  'from',
  'project',
  'settings',
  'matches',
  'read',
  'only',
  'commands',
];

/** The i-th streamed token: prose in paragraphs, with a fenced code block and a list now and then (like real answers). */
export function benchToken(i: number): string {
  const inBlock = i % 600;
  if (inBlock === 500) return '\n\n```ts\n';
  if (inBlock > 500 && inBlock < 560) return inBlock % 8 === 0 ? `const step${i} = run(${i});\n` : ` value${i % 13}`;
  if (inBlock === 560) return '\n```\n\n';
  if (i % 80 === 0) return i % 240 === 0 ? '\n\n- ' : '\n\n';
  if (i % 37 === 0) return ' `engine.decide()`';
  if (i % 53 === 0) return ' **allowed**';
  return ` ${VOCAB[i % VOCAB.length]}`;
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * A loopback Anthropic Messages API (POST /v1/messages, SSE) that streams one long text answer at a steady rate:
 * `tokensPerSecond` text deltas per second (one token each) for `durationMs`, then ends the turn.
 */
export async function startStreamServer(options: StreamServerOptions): Promise<StreamServer> {
  let sent = 0;
  let seq = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '');
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages') || key !== options.apiKey) {
        res.writeHead(req.method === 'POST' ? 401 : 404, {
          'content-type': 'application/json',
          'x-should-retry': 'false',
        });
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'authentication_error', message: 'bench server: bad route or key' },
          }),
        );
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model?: string };
      const id = `msg_bench_${++seq}`;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const usage = { input_tokens: 50, output_tokens: 1 };
      res.write(
        sse('message_start', {
          type: 'message_start',
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model: body.model ?? 'bench',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage,
          },
        }),
      );
      res.write(
        sse('content_block_start', {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' },
        }),
      );
      const started = Date.now();
      let mine = 0;
      const tick = (): void => {
        if (res.destroyed) return clearInterval(timer);
        const elapsed = Date.now() - started;
        const due = Math.floor((Math.min(elapsed, options.durationMs) * options.tokensPerSecond) / 1000);
        let out = '';
        for (; mine < due; mine++, sent++)
          out += sse('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: benchToken(mine) },
          });
        if (out) res.write(out);
        if (elapsed < options.durationMs) return;
        clearInterval(timer);
        res.write(sse('content_block_stop', { type: 'content_block_stop', index: 0 }));
        res.write(
          sse('message_delta', {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: mine },
          }),
        );
        res.end(sse('message_stop', { type: 'message_stop' }));
      };
      const timer = setInterval(tick, TICK_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    tokensSent: () => sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
