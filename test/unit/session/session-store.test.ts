import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../src/shared/conversation';
import { GatehouseError } from '../../../src/shared/errors';
import { SessionStore } from '../../../src/main/core/session/session-store';

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-sessions-')));
  store = new SessionStore({ configDir: root });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const user = (text: string): ConversationMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): ConversationMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const newSession = () => store.create({ projectRoot: root, agentMode: 'chat', model: 'm' });

describe('SessionStore', () => {
  it('writes a transcript per session (mode 0600) and rebuilds the conversation from per-turn deltas', async () => {
    const { header, writer } = await newSession();
    writer.append({ type: 'prompt', runId: 'r1', text: 'hello', agentMode: 'chat' });
    writer.recordConversation('r1', [user('hello')]);
    writer.recordConversation('r1', [user('hello')]); // unchanged: nothing written
    writer.recordConversation('r1', [user('hello'), assistant('hi')]);
    await writer.close();
    const file = store.fileOf(header.id);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; start?: number });
    expect(lines.filter((l) => l.type === 'messages').map((l) => l.start)).toEqual([0, 1]);
    const loaded = await store.load(header.id);
    expect(loaded.problems).toEqual([]);
    expect(loaded.header?.id).toBe(header.id);
    expect(loaded.conversation).toEqual([user('hello'), assistant('hi')]);
  });

  it('a rewritten earlier message (context trimming) replaces the tail from where it changed', async () => {
    const { header, writer } = await newSession();
    writer.recordConversation('r1', [user('a'), assistant('long output'), user('b')]);
    writer.recordConversation('r1', [user('a'), assistant('[trimmed]'), user('b'), assistant('c')]);
    await writer.close();
    expect((await store.load(header.id)).conversation).toEqual([
      user('a'),
      assistant('[trimmed]'),
      user('b'),
      assistant('c'),
    ]);
  });

  it('corrupt lines are reported with their numbers and skipped; the rest loads', async () => {
    const { header, writer } = await newSession();
    writer.recordConversation('r1', [user('one')]);
    await writer.close();
    const file = store.fileOf(header.id);
    fs.appendFileSync(file, 'garbage that is not json\n');
    fs.appendFileSync(file, JSON.stringify({ type: 'messages', runId: 'r1', start: 'zero', messages: [] }) + '\n');
    fs.appendFileSync(
      file,
      JSON.stringify({ type: 'messages', runId: 'r1', start: 1, messages: [assistant('two')], at: 'x' }) + '\n',
    );
    fs.appendFileSync(file, '{"type":"messages","runId":"r1","sta'); // a crash mid-write
    const loaded = await store.load(header.id);
    expect(loaded.problems.map((p) => p.line)).toEqual([3, 4, 6]);
    expect(loaded.problems[0]!.message).toMatch(/not JSON/);
    expect(loaded.conversation).toEqual([user('one'), assistant('two')]);
  });

  it('resume appends to the same file and continues from its conversation', async () => {
    const { header, writer } = await newSession();
    writer.recordConversation('r1', [user('one'), assistant('two')]);
    await writer.close();
    const resumed = await store.resume(header.id);
    expect(resumed.writer.conversation).toEqual([user('one'), assistant('two')]);
    resumed.writer.recordConversation('r2', [user('one'), assistant('two'), user('three')]);
    await resumed.writer.close();
    expect((await store.load(header.id)).conversation).toHaveLength(3);
    const messages = (await store.load(header.id)).entries.filter((e) => e.type === 'messages');
    expect(messages.map((e) => (e.type === 'messages' ? e.start : -1))).toEqual([0, 2]);
  });

  it('lists sessions newest first with their last prompt, leaves out foreign and headerless files, deletes', async () => {
    const a = await newSession();
    a.writer.append({ type: 'prompt', runId: 'r', text: 'first', agentMode: 'chat' });
    await a.writer.close();
    const anHourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(store.fileOf(a.header.id), anHourAgo, anHourAgo); // the order is by last write
    const b = await newSession();
    b.writer.append({ type: 'prompt', runId: 'r', text: 'second', agentMode: 'plan' });
    await b.writer.close();
    fs.writeFileSync(path.join(store.dir, 'notes.txt'), 'x');
    fs.writeFileSync(path.join(store.dir, 'headerless.jsonl'), '{"type":"prompt"}\n');
    const list = await store.list();
    expect(list.map((s) => s.id)).toEqual([b.header.id, a.header.id]);
    expect(list[0]).toMatchObject({ lastPrompt: 'second', prompts: 1, projectRoot: root });
    expect(await store.delete(a.header.id)).toBe(true);
    expect(await store.delete(a.header.id)).toBe(false);
    expect((await store.list()).map((s) => s.id)).toEqual([b.header.id]);
  });

  it.each(['../escape', 'a/b', '.', '', '..', 'x.jsonl', 'a\\b', '-rf'])(
    'refuses the session id %j (no path games)',
    async (id) => {
      expect(() => store.fileOf(id)).toThrow(GatehouseError);
      await expect(store.delete(id)).rejects.toThrow(/not a session id/);
    },
  );

  it('loading a missing session is NOT_FOUND, not a crash', async () => {
    await expect(store.load('0000-missing')).rejects.toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});
