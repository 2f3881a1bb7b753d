import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AppCore } from '../../src/main/services/app/app-core';
import { dispatchApi } from '../../src/main/services/app/api-dispatch';
import type { ApiEvent } from '../../src/shared/api';
import { GatehouseError } from '../../src/shared/errors';
import { reply, text, toolUse } from '../support/fake-anthropic';
import { useAppChat } from './agent-helpers';

// The app's chat through AppCore's handlers (the same entry the socket and IPC use), with the real worker process,
// the real permission engine and the loopback model server.

const app = useAppChat('gatehouse-app-chat-', 'sk-chat-secret');
const call = app.call;

/** The first event of `type` (matching `match`) the app sent, once it has. */
function until<T extends ApiEvent['type']>(
  type: T,
  match: (e: Extract<ApiEvent, { type: T }>) => boolean = () => true,
): Promise<Extract<ApiEvent, { type: T }>> {
  return vi.waitFor(
    () => {
      const found = app.events.find(
        (e): e is Extract<ApiEvent, { type: T }> => e.type === type && match(e as Extract<ApiEvent, { type: T }>),
      );
      if (!found) throw new Error(`no ${type} event; got ${JSON.stringify(app.events.map((e) => e.type))}`);
      return found;
    },
    { timeout: 15_000 },
  );
}

describe('the app chat', () => {
  it('streams a run, asks through approvalRequest, refuses a second message meanwhile, and never shows the key', async () => {
    app.fake.enqueue(reply(toolUse('t1', 'write_file', { path: 'a.txt', content: 'hi\n' })), reply(text('written')));
    const sent = (await call('sendMessage', { text: 'write a.txt' })) as { runId: string };
    const ask = await until('approvalRequest');
    expect(ask).toMatchObject({
      runId: sent.runId,
      tool: 'write_file',
      target: 'a.txt',
      preview: { kind: 'diff', path: 'a.txt' },
    });
    expect(ask.suggestedRules.length).toBeGreaterThan(0);
    await expect(call('sendMessage', { text: 'again' })).rejects.toThrow(/still working/);
    const state = (await call('getChatState')) as { pending: unknown[]; runningRunId: string; hasModelKey: boolean };
    expect(state).toMatchObject({ runningRunId: sent.runId, hasModelKey: true });
    expect(state.pending).toHaveLength(1);
    expect(await call('answerApproval', { requestId: 'no-such-request', decision: 'once' })).toEqual({
      accepted: false,
    });
    expect(await call('answerApproval', { requestId: ask.requestId, decision: 'once' })).toEqual({ accepted: true });
    const finished = await until('runFinished');
    expect(finished).toMatchObject({ runId: sent.runId, status: 'completed', finalText: 'written' });
    expect(fs.readFileSync(path.join(app.project, 'a.txt'), 'utf8')).toBe('hi\n');
    expect(app.events.some((e) => e.type === 'approvalClosed' && e.requestId === ask.requestId)).toBe(true);
    expect(app.events.some((e) => e.type === 'agent' && e.event.type === 'text_delta')).toBe(true);
    expect(JSON.stringify(app.events)).not.toContain(app.fake.apiKey);
    expect(JSON.stringify(state)).not.toContain(app.fake.apiKey);
    // A second answer to the same request is refused: it is no longer waiting.
    expect(await call('answerApproval', { requestId: ask.requestId, decision: 'always' })).toEqual({ accepted: false });
  });

  it('cancel while an approval waits: the request closes, the call is denied, the run ends cancelled', async () => {
    app.fake.enqueue(reply(toolUse('t2', 'run_command', { command: 'touch nope' })));
    await call('sendMessage', { text: 'run it' });
    const ask = await until('approvalRequest');
    expect(await call('cancelRun')).toEqual({ cancelled: true });
    await until('approvalClosed', (e) => e.requestId === ask.requestId);
    expect((await until('runFinished')).status).toBe('cancelled');
    expect(fs.existsSync(path.join(app.project, 'nope'))).toBe(false);
    expect(((await call('getChatState')) as { pending: unknown[] }).pending).toEqual([]);
  });

  it('the app quitting while an approval waits: the run ends cancelled and its transcript is complete, nothing runs', async () => {
    app.fake.enqueue(reply(toolUse('t9', 'run_command', { command: 'touch quit-nope' })));
    const sent = (await call('sendMessage', { text: 'run it, then quit' })) as { runId: string };
    await until('approvalRequest');
    await app.core.close(); // what the desktop and browser shells do before they stop the worker
    const sessions = path.join(app.configDir, 'sessions');
    const [file, ...more] = fs.readdirSync(sessions).filter((f) => f.endsWith('.jsonl'));
    expect(more).toEqual([]);
    const entries = fs
      .readFileSync(path.join(sessions, file!), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; runId?: string; status?: string });
    expect(entries.at(-1)).toMatchObject({ type: 'result', runId: sent.runId, status: 'cancelled' });
    expect(fs.existsSync(path.join(app.project, 'quit-nope'))).toBe(false);
  });

  it('when the last listener goes, a waiting approval is denied; with nobody listening an ask is denied at once', async () => {
    app.fake.enqueue(reply(toolUse('t3', 'write_file', { path: 'b.txt', content: 'x' })), reply(text('gave up')));
    await call('sendMessage', { text: 'write b.txt' });
    await until('approvalRequest');
    app.unsubscribe(); // the page closed
    const results = async (): Promise<unknown[]> => {
      const msgs = app.fake.requests[app.fake.requests.length - 1]?.body.messages ?? [];
      const last = msgs[msgs.length - 1];
      return Array.isArray(last?.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
    };
    await expect.poll(async () => (await app.core.chat.state()).runningRunId, { timeout: 15_000 }).toBeNull();
    expect(await results()).toEqual([expect.objectContaining({ tool_use_id: 't3', is_error: true })]);
    expect(fs.existsSync(path.join(app.project, 'b.txt'))).toBe(false);

    app.fake.enqueue(reply(toolUse('t4', 'write_file', { path: 'c.txt', content: 'x' })), reply(text('no one here')));
    await call('sendMessage', { text: 'write c.txt' });
    await expect.poll(() => app.fake.pending(), { timeout: 15_000 }).toBe(0);
    await expect.poll(async () => (await app.core.chat.state()).runningRunId, { timeout: 15_000 }).toBeNull();
    expect(await results()).toEqual([expect.objectContaining({ tool_use_id: 't4', is_error: true })]);
    expect(fs.existsSync(path.join(app.project, 'c.txt'))).toBe(false);
  });

  it('says plainly when there is no model key or no project, and rejects malformed answers at the boundary', async () => {
    const bare = app.track(
      new AppCore({
        shell: 'browser',
        worker: app.worker,
        configDir: app.configDir,
        project: null,
        env: { PATH: process.env.PATH },
      }),
    );
    await expect(dispatchApi(bare.handlers, 'sendMessage', { text: 'hi' })).rejects.toThrow(/open a project/);
    await bare.openProject(app.project);
    await expect(dispatchApi(bare.handlers, 'sendMessage', { text: 'hi' })).rejects.toThrow(/ANTHROPIC_API_KEY/);
    expect(await dispatchApi(bare.handlers, 'getChatState', {})).toMatchObject({
      hasModelKey: false,
      runningRunId: null,
    });
    for (const bad of [
      { requestId: 'x', decision: 'yes' },
      { requestId: '', decision: 'once' },
      { requestId: 'x', decision: 'once', extra: 1 },
    ]) {
      await expect(call('answerApproval', bad)).rejects.toBeInstanceOf(GatehouseError);
    }
    await expect(call('sendMessage', { text: '   ' })).rejects.toThrow(/text/);
    // Sessions: only this project's are listed; an id that is malformed or not this project's is refused.
    expect(await call('listSessions')).toEqual({ sessions: [] });
    await expect(call('resumeSession', { id: '../../etc/passwd' })).rejects.toThrow(/not a session id/);
    const other = path.join(app.root, 'other');
    fs.mkdirSync(other);
    const elsewhere = app.track(
      new AppCore({
        shell: 'browser',
        worker: app.worker,
        configDir: app.configDir,
        project: other,
        env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: app.fake.apiKey, ANTHROPIC_BASE_URL: app.fake.baseURL },
      }),
    );
    app.fake.enqueue(reply(text('other project')));
    const otherRun = (await dispatchApi(elsewhere.handlers, 'sendMessage', { text: 'hello other' })) as {
      sessionId: string;
    };
    await expect.poll(async () => (await elsewhere.chat.state()).runningRunId, { timeout: 15_000 }).toBeNull();
    expect(
      ((await dispatchApi(elsewhere.handlers, 'listSessions', {})) as { sessions: { id: string }[] }).sessions.map(
        (x) => x.id,
      ),
    ).toEqual([otherRun.sessionId]);
    expect(await call('listSessions')).toEqual({ sessions: [] });
    await expect(call('resumeSession', { id: otherRun.sessionId })).rejects.toThrow(/belongs to/);
    await elsewhere.chat.endSession();
    await expect(call('sendMessage', { text: 'hi', agentMode: 'yolo' })).rejects.toThrow(/agentMode/);
  });
});
