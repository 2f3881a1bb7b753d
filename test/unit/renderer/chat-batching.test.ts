import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { ApiEvent } from '../../../src/shared/api';
import type { AgentEvent } from '../../../src/shared/agent-events';
import { appendDeltas } from '../../../src/renderer/src/chat/chat-deltas';
import type { ChatItem } from '../../../src/renderer/src/chat/chat-store';
import { applyChatEvent, flushChatDeltas, STREAM_RENDER_MS, useChat } from '../../../src/renderer/src/chat/chat-store';
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

/** A batcher over strings ('d…' are deltas) with a hand-driven scheduler and clock. */
function manualBatcher(minIntervalMs = 0) {
  const applied: string[] = [];
  const waiting: Array<{ run: () => void; delay: number }> = [];
  let clock = 0;
  const batcher = createDeltaBatcher<string>({
    isDelta: (e) => e.startsWith('d'),
    applyDeltas: (ds) => applied.push(`[${ds.join(',')}]`),
    applyEvent: (e) => applied.push(e),
    minIntervalMs,
    now: () => clock,
    schedule: (run, delay) => {
      const entry = { run, delay };
      waiting.push(entry);
      return () => waiting.splice(waiting.indexOf(entry), 1);
    },
  });
  return { batcher, applied, waiting, tick: (ms: number) => (clock += ms) };
}

describe('createDeltaBatcher', () => {
  it('holds deltas until their render, and flushes them before any other event so the order is kept', () => {
    const { batcher, applied, waiting } = manualBatcher();
    batcher.push('d1');
    batcher.push('d2');
    expect(applied).toEqual([]);
    expect(waiting).toHaveLength(1); // one render requested for the whole batch
    batcher.push('e1');
    expect(applied).toEqual(['[d1,d2]', 'e1']);
    expect(waiting).toHaveLength(0); // the flush cancelled the render it no longer needs
    batcher.push('d3');
    batcher.push('d4');
    expect(batcher.pending()).toBe(2);
    waiting.shift()?.run();
    expect(applied).toEqual(['[d1,d2]', 'e1', '[d3,d4]']);
    batcher.flush(); // nothing queued: nothing applied
    expect(applied).toHaveLength(3);
  });

  it('waits out the interval since the last render, but never delays another event', () => {
    const { batcher, applied, waiting, tick } = manualBatcher(40);
    batcher.push('d1');
    expect(waiting[0]?.delay).toBe(0); // nothing rendered lately: the next task
    waiting.shift()?.run();
    tick(10);
    batcher.push('d2');
    expect(waiting[0]?.delay).toBe(30); // 40 ms after the render of d1
    tick(5);
    batcher.push('d3');
    expect(waiting).toHaveLength(1);
    batcher.push('e1'); // not a delta: applied at once, after the deltas before it
    expect(applied).toEqual(['[d1]', '[d2,d3]', 'e1']);
    tick(100);
    batcher.push('d4');
    expect(waiting[0]?.delay).toBe(0);
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

describe('the chat store batches streamed deltas', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useChat.setState({ items: [], running: false, runId: null, usage: null, approvals: [] });
  });
  afterEach(() => {
    flushChatDeltas();
    vi.useRealTimers();
  });

  it('renders a burst of 500 deltas once, in the next task', () => {
    let renders = 0;
    const unsubscribe = useChat.subscribe(() => renders++);
    for (let i = 0; i < 500; i++) applyChatEvent(text(`w${i} `));
    expect(renders).toBe(0);
    expect(useChat.getState().items).toEqual([]);
    vi.advanceTimersByTime(1);
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
    expect(shown()).toEqual(['assistant(1):Let me look.', 'tool(c1):a.txt\nb.txt\n']); // waiting for the render
    vi.advanceTimersByTime(STREAM_RENDER_MS);
    expect(shown()).toEqual(['assistant(1):Let me look.', 'tool(c1):a.txt\nb.txt\n', 'assistant(2):Two files.']);
  });

  it('the end of the run flushes what is queued, before its notice', () => {
    applyChatEvent(text('partial answ'));
    applyChatEvent(text('er'));
    applyChatEvent({ type: 'runFinished', runId: RUN, status: 'cancelled', usage, turns: 1, finalText: '' });
    expect(shown()).toEqual(['assistant(1):partial answer', 'notice:Cancelled.']);
    expect(useChat.getState()).toMatchObject({ running: false, runId: null });
  });

  it('rows that did not change keep their identity across renders', () => {
    applyChatEvent(text('one'));
    applyChatEvent(started('c1'));
    applyChatEvent(text('two', 2));
    vi.advanceTimersByTime(STREAM_RENDER_MS);
    const [first, card, streaming] = useChat.getState().items;
    expect(streaming?.kind).toBe('assistant');
    applyChatEvent(text(' more', 2));
    vi.advanceTimersByTime(STREAM_RENDER_MS);
    const after = useChat.getState().items;
    expect(after[0]).toBe(first);
    expect(after[1]).toBe(card);
    expect(after[2]).not.toBe(streaming);
    expect(shown(after)[2]).toBe('assistant(2):two more');
  });
});

describe('batching never drops, reorders or holds back a delta (random streams)', () => {
  /** Reproduce a run: GATEHOUSE_BATCH_SEED=<seed printed below>. */
  const SEED = Number(process.env.GATEHOUSE_BATCH_SEED ?? Date.now() % 2 ** 31);
  type Step =
    | { kind: 'text'; turn: number; text: string }
    | { kind: 'output'; text: string }
    | { kind: 'tool' }
    | { kind: 'finish' }
    | { kind: 'wait'; ms: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('text' as const),
        turn: fc.integer({ min: 1, max: 3 }),
        text: fc.string({ maxLength: 6 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('output' as const), text: fc.string({ maxLength: 6 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'tool' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'finish' as const }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 60 }) }) },
  );

  beforeEach(() => {
    vi.useFakeTimers();
    useChat.setState({ items: [], running: false, runId: null, usage: null, approvals: [] });
  });
  afterEach(() => {
    flushChatDeltas();
    vi.useRealTimers();
  });

  it('the batcher applies every event once, in the order pushed, whatever the chunking and timing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('d', 'e'), fc.integer({ min: 0, max: 50 })), { maxLength: 60 }),
        (script) => {
          const applied: string[] = [];
          const batcher = createDeltaBatcher<string>({
            isDelta: (e) => e.startsWith('d'),
            applyDeltas: (ds) => applied.push(...ds),
            applyEvent: (e) => applied.push(e),
            minIntervalMs: STREAM_RENDER_MS,
          });
          const pushed: string[] = [];
          script.forEach((s, i) => {
            if (typeof s === 'number') vi.advanceTimersByTime(s);
            else {
              batcher.push(`${s}${i}`);
              pushed.push(`${s}${i}`);
            }
          });
          vi.advanceTimersByTime(STREAM_RENDER_MS);
          expect(applied).toEqual(pushed);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('shows every delta in order, all of them once STREAM_RENDER_MS passed, rendering at most once per interval', () => {
    console.log(`chat-batching: seed ${SEED} (reproduce: GATEHOUSE_BATCH_SEED=${SEED})`);
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        flushChatDeltas();
        useChat.setState({ items: [], running: false, runId: null, usage: null, approvals: [] });
        // The model: every event applied at once, in order (what the transcript must show in the end).
        const model: ChatItem[] = [];
        let call = 0;
        let pushing = false;
        const timerRenders: number[] = [];
        const unsubscribe = useChat.subscribe(() => {
          if (!pushing) timerRenders.push(performance.now());
        });
        const push = (event: ApiEvent): void => {
          pushing = true;
          applyChatEvent(event);
          pushing = false;
        };
        for (const s of steps) {
          if (s.kind === 'wait') {
            vi.advanceTimersByTime(s.ms);
            if (s.ms >= STREAM_RENDER_MS) expect(shown()).toEqual(shown(model)); // nothing held back any longer
            continue;
          }
          if (s.kind === 'text') {
            push(text(s.text, s.turn));
            const last = model[model.length - 1];
            if (s.text === '') continue;
            if (last?.kind === 'assistant' && last.turn === s.turn) last.text += s.text;
            else model.push({ kind: 'assistant', key: '', turn: s.turn, text: s.text });
          } else if (s.kind === 'tool') {
            push(started(`c${++call}`));
            model.push({
              kind: 'tool',
              key: '',
              callId: `c${call}`,
              name: 'run_command',
              input: {},
              decision: null,
              output: '',
              result: null,
            });
          } else if (s.kind === 'output') {
            push(output(`c${call}`, s.text));
            const card = model.find((it) => it.kind === 'tool' && it.callId === `c${call}`);
            if (card?.kind === 'tool') card.output += s.text;
          } else {
            push(agent({ type: 'turn_usage', turn: 1, stopReason: 'end_turn', usage, total: usage }));
          }
        }
        vi.advanceTimersByTime(STREAM_RENDER_MS);
        unsubscribe();
        expect(shown()).toEqual(shown(model));
        for (let i = 1; i < timerRenders.length; i++)
          expect((timerRenders[i] ?? 0) - (timerRenders[i - 1] ?? 0)).toBeGreaterThanOrEqual(STREAM_RENDER_MS);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
