import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RpcEventSchema } from '../../src/shared/rpc-protocol';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { RpcClient, sentToolResults, withModelSandbox } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// `gatehouse rpc` as a real process: JSONL commands in, events out, approvals answered by the client.

let fake: FakeAnthropic;
let box: Sandbox;
const clients = withModelSandbox((f, b) => {
  fake = f;
  box = b;
});

function rpc(...args: string[]): RpcClient {
  const c = new RpcClient(['--project', box.project, ...args], box.env, box.home);
  clients.push(c);
  return c;
}

const ofType = (type: string) => (e: Record<string, unknown>) => e.type === type;

describe('gatehouse rpc', () => {
  it('approval once: the request carries the diff preview, the file is written', async () => {
    fake.enqueue(
      reply(toolUse('toolu_w', 'write_file', { path: 'hello.txt', content: 'hi there\n' })),
      reply(text('Written.')),
    );
    const c = rpc();
    const ready = await c.waitFor(ofType('ready'));
    // The key travels over the port per run, never through the worker's environment.
    const environ = `/proc/${Number(ready.workerPid)}/environ`;
    if (fs.existsSync(environ)) {
      const env = fs.readFileSync(environ, 'utf8');
      expect(env).toContain('GATEHOUSE_HOME=');
      expect(env).not.toContain('ANTHROPIC');
      expect(env).not.toContain(fake.apiKey);
    }
    c.send({ type: 'prompt', id: 'p1', text: 'write hello.txt' });
    const ask = await c.waitFor(ofType('approval_request'));
    expect(ask).toMatchObject({ promptId: 'p1', tool: 'write_file', preview: { kind: 'diff', path: 'hello.txt' } });
    expect(String((ask.preview as { unifiedDiff: string }).unifiedDiff)).toContain('+hi there');
    expect(fs.existsSync(path.join(box.project, 'hello.txt'))).toBe(false);
    c.send({ type: 'approve', requestId: ask.requestId, decision: 'once' });
    const result = await c.waitFor(ofType('result'));
    expect(result).toMatchObject({ promptId: 'p1', status: 'completed', finalText: 'Written.' });
    expect(fs.readFileSync(path.join(box.project, 'hello.txt'), 'utf8')).toBe('hi there\n');
    const decided = c.events.filter(
      (e) => e.type === 'agent' && (e.event as { type: string }).type === 'tool_call_decided',
    );
    expect(decided).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({ id: 'toolu_w', allow: true, source: 'approval', answer: { choice: 'once' } }),
      }),
    ]);
    for (const e of c.events) RpcEventSchema.parse(e);
    expect(await c.close()).toBe(0);
  });

  it('deny with a note: the model gets is_error with the note, nothing is written', async () => {
    fake.enqueue(
      reply(toolUse('toolu_w', 'write_file', { path: 'x.txt', content: 'x' })),
      reply(text('OK, I will not.')),
    );
    const c = rpc();
    await c.waitFor(ofType('ready'));
    c.send({ type: 'prompt', id: 'p1', text: 'write x' });
    const ask = await c.waitFor(ofType('approval_request'));
    c.send({ type: 'approve', requestId: ask.requestId, decision: 'deny', note: 'use the staging folder instead' });
    await c.waitFor(ofType('result'));
    const [res] = sentToolResults(fake.requests[1]!.body);
    expect(res).toMatchObject({ tool_use_id: 'toolu_w', is_error: true });
    expect(String(res!.content)).toContain('use the staging folder instead');
    expect(fs.existsSync(path.join(box.project, 'x.txt'))).toBe(false);
  });

  it('malformed tool arguments are denied by the schema and never run', async () => {
    fake.enqueue(
      reply({ type: 'tool_use', id: 'toolu_bad', name: 'write_file', rawJson: '{"path": "a.txt", "content": ' }),
      reply(text('Retrying later.')),
    );
    const c = rpc('--mode', 'bypassPermissions');
    await c.waitFor(ofType('ready'));
    c.send({ type: 'prompt', id: 'p1', text: 'go' });
    await c.waitFor(ofType('result'));
    const decided = c.events.find(
      (e) => e.type === 'agent' && (e.event as { type: string }).type === 'tool_call_decided',
    );
    expect(decided).toMatchObject({ event: { id: 'toolu_bad', allow: false, source: 'schema' } });
    expect(fs.existsSync(path.join(box.project, 'a.txt'))).toBe(false);
    const [res] = sentToolResults(fake.requests[1]!.body);
    expect(res).toMatchObject({ is_error: true });
  });

  it('malformed lines become error events naming the line; a CR inside a line is data, not a separator', async () => {
    fake.enqueue(reply(text('Hello back.')));
    const c = rpc();
    await c.waitFor(ofType('ready'));
    c.send('this is not json');
    c.send({ type: 'launch-missiles' });
    c.send({ type: 'approve', requestId: 'nope', decision: 'once' });
    // A raw CR between JSON tokens is whitespace: one command, not two broken lines.
    c.send('{"type":"prompt",\r"id":"p1","text":"hi"}');
    const result = await c.waitFor(ofType('result'));
    expect(result).toMatchObject({ promptId: 'p1', status: 'completed' });
    const errors = c.events.filter(ofType('error'));
    expect(errors.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(String(errors[0]!.message)).toMatch(/^line 1: not JSON/);
    expect(String(errors[1]!.message)).toContain('line 2');
    expect(errors[2]).toMatchObject({ code: 'NOT_FOUND' });
    expect(await c.close()).toBe(0);
  });

  it('cancel mid-stream: the run ends cancelled and the session takes the next prompt', async () => {
    fake.enqueue({
      kind: 'message',
      content: [text('a very slow answer that goes on and on and on')],
      eventDelayMs: 300,
      chunkSize: 2,
    });
    const c = rpc();
    await c.waitFor(ofType('ready'));
    c.send({ type: 'prompt', id: 'p1', text: 'talk slowly' });
    await c.waitFor((e) => e.type === 'agent' && (e.event as { type: string }).type === 'text_delta');
    c.send({ type: 'cancel' });
    const result = await c.waitFor(ofType('result'));
    expect(result).toMatchObject({ promptId: 'p1', status: 'cancelled' });
    expect(await fake.requests[0]!.outcome).toBe('client-closed');
    fake.enqueue(reply(text('Fast now.')));
    c.send({ type: 'prompt', id: 'p2', text: 'again' });
    expect(await c.waitFor((e) => e.type === 'result' && e.promptId === 'p2')).toMatchObject({ status: 'completed' });
    expect(await c.close()).toBe(0);
  });

  it('SIGKILL of the worker mid-turn: the approval is closed, the transcript survives and the session continues', async () => {
    fake.enqueue(reply(text('I will write.'), toolUse('toolu_w', 'write_file', { path: 'y.txt', content: 'y' })));
    const c = rpc();
    const ready = await c.waitFor(ofType('ready'));
    const workerPid = Number(ready.workerPid);
    expect(workerPid).toBeGreaterThan(0);
    c.send({ type: 'prompt', id: 'p1', text: 'first task alpha' });
    const ask = await c.waitFor(ofType('approval_request'));
    process.kill(workerPid, 'SIGKILL');
    await c.waitFor((e) => e.type === 'approval_closed' && e.requestId === ask.requestId);
    const failed = await c.waitFor(ofType('result'));
    expect(failed).toMatchObject({ promptId: 'p1', status: 'error', error: { code: 'WORKER_CRASHED' } });
    expect(fs.existsSync(path.join(box.project, 'y.txt'))).toBe(false);

    // The supervisor restarted the worker; the next prompt continues the same conversation.
    fake.enqueue(reply(text('Continuing.')));
    const from = c.events.length;
    c.send({ type: 'prompt', id: 'p2', text: 'second task beta' });
    const ok = await c.waitFor((e) => e.type === 'result' && e.promptId === 'p2', from);
    expect(ok).toMatchObject({ status: 'completed', finalText: 'Continuing.' });
    const sent = JSON.stringify(fake.requests[fake.requests.length - 1]!.body.messages);
    expect(sent).toContain('first task alpha');
    expect(sent).toContain('second task beta');
    expect(await c.close()).toBe(0);

    // And a fresh process resumes it from disk.
    const sessionId = String(ready.sessionId);
    fake.enqueue(reply(text('Resumed.')));
    const again = new RpcClient(['--resume', sessionId], box.env, box.home);
    clients.push(again);
    const ready2 = await again.waitFor(ofType('ready'));
    expect(ready2).toMatchObject({ sessionId, resumed: true, problems: [] });
    again.send({ type: 'prompt', id: 'p3', text: 'third task gamma' });
    await again.waitFor(ofType('result'));
    const resent = JSON.stringify(fake.requests[fake.requests.length - 1]!.body.messages);
    expect(resent).toContain('first task alpha');
    expect(resent).toContain('Continuing.');
    expect(resent).toContain('third task gamma');
    expect(await again.close()).toBe(0);
  });
});
