import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../src/shared/conversation';
import { SessionStore } from '../../../src/main/core/session/session-store';
import { forkSession } from '../../../src/main/core/session/session-fork';
import { promptStarts } from '../../../src/main/core/session/transcript-reader';
import type { TranscriptEntry } from '../../../src/main/core/session/transcript-entry';

// "Rewind to here": where each of the person's messages is in a stored conversation (its run), and a copy of a
// session that ends just before one of them, from real transcript files.

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-session-fork-')));
  store = new SessionStore({ configDir: root });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const user = (t: string): ConversationMessage => ({ role: 'user', content: [{ type: 'text', text: t }] });
const agent = (t: string): ConversationMessage => ({ role: 'assistant', content: [{ type: 'text', text: t }] });
const at = '2026-12-02T10:00:00.000Z';
const prompt = (runId: string, text: string): TranscriptEntry => ({ type: 'prompt', at, runId, text, agentMode: 'do' });
const messages = (runId: string, start: number, list: ConversationMessage[]): TranscriptEntry => ({
  type: 'messages',
  at,
  runId,
  start,
  messages: list,
});

describe('where the person’s messages are (promptStarts)', () => {
  it('maps each run to its message; a blocked prompt has none; a shorter conversation drops what it cut', () => {
    const entries = [
      prompt('r1', 'one'),
      messages('r1', 0, [user('one'), agent('a1')]),
      prompt('blocked', 'no'), // a hook blocked it: it never reached the conversation
      prompt('r2', 'two'),
      messages('r2', 2, [user('two')]),
      messages('r2', 3, [agent('a2')]),
    ];
    expect(promptStarts(entries)).toEqual([
      { runId: 'r1', index: 0, text: 'one' },
      { runId: 'r2', index: 2, text: 'two' },
    ]);
    // A later record that replaces the conversation from index 1 on (a compaction, a rewrite) cuts r2's message.
    expect(promptStarts([...entries, messages('r3', 1, [agent('summary')])])).toEqual([
      { runId: 'r1', index: 0, text: 'one' },
    ]);
  });
});

describe('forkSession', () => {
  async function storedSession(): Promise<string> {
    const { header, writer } = await store.create({ projectRoot: root, agentMode: 'do', model: 'm' });
    writer.append({ type: 'prompt', runId: 'r1', text: 'first', agentMode: 'do' });
    writer.recordConversation('r1', [user('first'), agent('done 1')]);
    writer.append({
      type: 'event',
      runId: 'r1',
      event: {
        type: 'tool_call_decided',
        id: 'c1',
        allow: true,
        source: 'mode',
        reason: 'acceptEdits mode',
        rule: null,
      },
    });
    writer.append({
      type: 'result',
      runId: 'r1',
      status: 'completed',
      usage: { inputTokens: 5, outputTokens: 1 },
      turns: 1,
      finalText: 'done 1',
    });
    writer.append({ type: 'prompt', runId: 'r2', text: 'second', agentMode: 'do' });
    writer.recordConversation('r2', [user('first'), agent('done 1'), user('second'), agent('done 2')]);
    await writer.close();
    return header.id;
  }

  it('copies the runs before the message; the session itself is unchanged', async () => {
    const id = await storedSession();
    const before = fs.readFileSync(store.fileOf(id), 'utf8');
    const { header, firstPrompt } = await forkSession(store, id, 'r2');
    expect(header.id).not.toBe(id);
    expect(header.forkedFrom).toEqual({ sessionId: id, runId: 'r2' });
    expect(firstPrompt).toBe('first');
    const copy = await store.load(header.id);
    expect(copy.conversation).toEqual([user('first'), agent('done 1')]);
    expect(copy.prompts).toEqual([{ runId: 'r1', index: 0, text: 'first' }]);
    expect(copy.decisions.map((d) => d.id)).toEqual(['c1']);
    expect(copy.usage).toEqual({ inputTokens: 5, outputTokens: 1 });
    expect(copy.problems).toEqual([]);
    expect(fs.readFileSync(store.fileOf(id), 'utf8')).toBe(before);
    expect((fs.statSync(store.fileOf(header.id)).mode & 0o077).toString(8)).toBe('0');
    // Both are listed: nothing was lost.
    expect((await store.list()).map((s) => s.id).sort()).toEqual([id, header.id].sort());
  });

  it('to the first message: an empty copy; an unknown run or a bad id is refused and writes nothing', async () => {
    const id = await storedSession();
    const { header } = await forkSession(store, id, 'r1');
    expect((await store.load(header.id)).conversation).toEqual([]);
    await expect(forkSession(store, id, 'nope')).rejects.toThrow(/has no message of run nope/);
    await expect(forkSession(store, '../escape', 'r1')).rejects.toThrow(/not a session id/);
    expect(fs.readdirSync(store.dir).filter((n) => n.endsWith('.jsonl'))).toHaveLength(2);
  });
});
