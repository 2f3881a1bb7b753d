import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiEvent } from '../../../src/shared/api';
import type { AgentEvent } from '../../../src/shared/agent-events';
import { appendDeltas } from '../../../src/renderer/src/chat/chat-deltas';
import type { ChatItem } from '../../../src/renderer/src/chat/chat-store';
import { applyChatEvent, flushChatDeltas, useChat } from '../../../src/renderer/src/chat/chat-store';
import { createDeltaBatcher } from '../../../src/renderer/src/chat/delta-batcher';

const RUN = 'run-1';
const agent = (event: AgentEvent): ApiEvent => ({ type: 'agent', runId: RUN, event });
const text = (value: string, turn = 1): ApiEvent => agent({ type: 'text_delta', turn, text: value });
const output = (id: string, chunk: string): ApiEvent => agent({ type: 'tool_call_output', id, chunk });
const started = (id: string, turn = 1): ApiEvent =>
  agent({ type: 'tool_call_started', turn, id, name: 'run_command', input: { command: 'ls' }, safety: null });
const usage = { inputTokens: 1, outputTokens: 2 };

/** What the transcript shows, in order, as short strings. */
function shown(items: ChatItem[] = useChat.getState().items): string[] {
  return items.map((it) => {
    switch (it.kind) {
      case 'assistant':
        return `assistant(${it.turn}):${it.text}`;
      case 'tool':
        return `tool(${it.callId}):${it.output}`;
      case 'user':
        return `user:${it.text}`;
      case 'notice':
        return `notice:${it.text}`;
    }
  });
}

describe('createDeltaBatcher', () => {
  it('holds deltas until the frame, and flushes them before any other event so the order is kept', () => {
    const applied: string[] = [];
    const frames: Array<() => void> = [];
    const batcher = createDeltaBatcher<string>({
      isDelta: (e) => e.startsWith('d'),
      applyDeltas: (ds) => applied.push(`[${ds.join(',')}]`),
      applyEvent: (e) => applied.push(e),
      schedule: (cb) => {
        frames.push(cb);
        return () => frames.splice(frames.indexOf(cb), 1);
      },
    });
    batcher.push('d1');
    batcher.push('d2');
    expect(applied).toEqual([]);
    expect(frames).toHaveLength(1); // one frame requested for the whole batch
    batcher.push('e1');
    expect(applied).toEqual(['[d1,d2]', 'e1']);
    expect(frames).toHaveLength(0); // the flush cancelled the frame it no longer needs
    batcher.push('d3');
    batcher.push('d4');
    expect(batcher.pending()).toBe(2);
    frames[0]?.();
    expect(applied).toEqual(['[d1,d2]', 'e1', '[d3,d4]']);
    batcher.flush(); // nothing queued: nothing applied
    expect(applied).toHaveLength(3);
  });
});

describe('appendDeltas', () => {
  it('changes only the items the deltas extend; the others keep their identity', () => {
    const items: ChatItem[] = [
      { kind: 'user', key: 'u', text: 'hi' },
      { kind: 'assistant', key: 'a1', turn: 1, text: 'first' },
      {
        kind: 'tool',
        key: 't',
        callId: 'c1',
        name: 'run_command',
        input: {},
        decision: null,
        output: '',
        result: null,
      },
      { kind: 'assistant', key: 'a2', turn: 2, text: 'sec' },
    ];
    const before = shown(items);
    const next = appendDeltas(
      items,
      [
        { type: 'text_delta', turn: 2, text: 'on' },
        { type: 'tool_call_output', id: 'c1', chunk: 'out\n' },
        { type: 'text_delta', turn: 2, text: 'd' },
        { type: 'tool_call_output', id: 'c1', chunk: 'more' },
        { type: 'tool_call_output', id: 'nobody', chunk: 'dropped' },
      ],
      () => 'new',
    );
    expect(shown(next)).toEqual(['user:hi', 'assistant(1):first', 'tool(c1):out\nmore', 'assistant(2):second']);
    expect(shown(items)).toEqual(before); // the old state is untouched
    expect(next[0]).toBe(items[0]);
    expect(next[1]).toBe(items[1]);
    expect(next[2]).not.toBe(items[2]);
    expect(next[3]).not.toBe(items[3]);
    expect(next.map((it) => it.key)).toEqual(['u', 'a1', 't', 'a2']);
  });

  it('a new turn starts a new assistant item; an empty batch returns the same array', () => {
    const items: ChatItem[] = [{ kind: 'assistant', key: 'a1', turn: 1, text: 'one' }];
    let n = 0;
    const next = appendDeltas(
      items,
      [
        { type: 'text_delta', turn: 2, text: 'tw' },
        { type: 'text_delta', turn: 2, text: 'o' },
      ],
      () => `k${++n}`,
    );
    expect(shown(next)).toEqual(['assistant(1):one', 'assistant(2):two']);
    expect(next[1]?.key).toBe('k1');
    expect(appendDeltas(items, [], () => 'x')).toBe(items);
    expect(appendDeltas(items, [{ type: 'text_delta', turn: 1, text: '' }], () => 'x')).toBe(items);
  });
});

describe('the chat store batches streamed deltas per frame', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useChat.setState({ items: [], running: false, runId: null, usage: null, approvals: [] });
  });
  afterEach(() => {
    flushChatDeltas();
    vi.useRealTimers();
  });

  it('renders a burst of 500 deltas once, on the next frame', () => {
    let renders = 0;
    const unsubscribe = useChat.subscribe(() => renders++);
    for (let i = 0; i < 500; i++) applyChatEvent(text(`w${i} `));
    expect(renders).toBe(0);
    expect(useChat.getState().items).toEqual([]);
    vi.advanceTimersByTime(20);
    unsubscribe();
    expect(renders).toBe(1);
    const items = useChat.getState().items;
    expect(items).toHaveLength(1);
    expect(shown(items)[0]).toBe(`assistant(1):${Array.from({ length: 500 }, (_, i) => `w${i} `).join('')}`);
    expect(useChat.getState()).toMatchObject({ running: true, runId: RUN });
  });

  it('keeps the order across text, tool and output events', () => {
    applyChatEvent(text('Let me '));
    applyChatEvent(text('look.'));
    applyChatEvent(started('c1'));
    // The tool card came after the text that streamed before it, without waiting for a frame.
    expect(shown()).toEqual(['assistant(1):Let me look.', 'tool(c1):']);
    applyChatEvent(output('c1', 'a.txt\n'));
    applyChatEvent(output('c1', 'b.txt\n'));
    applyChatEvent(
      agent({
        type: 'tool_call_finished',
        id: 'c1',
        ran: true,
        isError: false,
        content: 'a.txt\nb.txt\n',
        exitCode: 0,
        durationMs: 3,
      }),
    );
    const tool = useChat.getState().items[1];
    expect(tool?.kind === 'tool' && tool.output).toBe('a.txt\nb.txt\n');
    expect(tool?.kind === 'tool' && tool.result?.exitCode).toBe(0);
    applyChatEvent(text('Two ', 2));
    applyChatEvent(text('files.', 2));
    expect(shown()).toEqual(['assistant(1):Let me look.', 'tool(c1):a.txt\nb.txt\n']); // waiting for the frame
    vi.advanceTimersByTime(20);
    expect(shown()).toEqual(['assistant(1):Let me look.', 'tool(c1):a.txt\nb.txt\n', 'assistant(2):Two files.']);
  });

  it('the end of the run flushes what is queued, before its notice', () => {
    applyChatEvent(text('partial answ'));
    applyChatEvent(text('er'));
    applyChatEvent({ type: 'runFinished', runId: RUN, status: 'cancelled', usage, turns: 1, finalText: '' });
    expect(shown()).toEqual(['assistant(1):partial answer', 'notice:Cancelled.']);
    expect(useChat.getState()).toMatchObject({ running: false, runId: null });
  });

  it('rows that did not change keep their identity across frames', () => {
    applyChatEvent(text('one'));
    applyChatEvent(started('c1'));
    applyChatEvent(text('two', 2));
    vi.advanceTimersByTime(20);
    const [first, card, streaming] = useChat.getState().items;
    applyChatEvent(text(' more', 2));
    vi.advanceTimersByTime(20);
    const after = useChat.getState().items;
    expect(after[0]).toBe(first);
    expect(after[1]).toBe(card);
    expect(after[2]).not.toBe(streaming);
    expect(shown(after)[2]).toBe('assistant(2):two more');
  });
});
