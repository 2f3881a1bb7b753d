import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiEvent } from '../../../src/shared/api';
import { COALESCE_MAX_CHARS, EventCoalescer } from '../../../src/main/services/app/event-coalescer';

const text = (t: string, turn = 1, runId = 'r1'): ApiEvent => ({
  type: 'agent',
  runId,
  event: { type: 'text_delta', turn, text: t },
});
const output = (chunk: string, id = 'c1'): ApiEvent => ({
  type: 'agent',
  runId: 'r1',
  event: { type: 'tool_call_output', id, chunk },
});
const started: ApiEvent = {
  type: 'agent',
  runId: 'r1',
  event: {
    type: 'tool_call_started',
    turn: 1,
    id: 'c1',
    name: 'run_command',
    input: { command: 'ls' },
    safety: 'exec',
  },
};

function collect(): { sent: ApiEvent[]; coalescer: EventCoalescer } {
  const sent: ApiEvent[] = [];
  return { sent, coalescer: new EventCoalescer((e) => sent.push(e), 16) };
}

describe('EventCoalescer', () => {
  afterEach(() => vi.useRealTimers());

  it('joins the deltas of one turn into one event, sent after about a frame', () => {
    vi.useFakeTimers();
    const { sent, coalescer } = collect();
    for (const t of ['Hel', 'lo, ', 'world']) coalescer.push(text(t));
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(16);
    expect(sent).toEqual([text('Hello, world')]);
  });

  it('sends what it holds before any other event, so the order is kept', () => {
    const { sent, coalescer } = collect();
    coalescer.push(text('I will run ls. '));
    coalescer.push(started);
    coalescer.push(output('a\n'));
    coalescer.push(output('b\n'));
    coalescer.push({ type: 'approvalClosed', requestId: 'q', reason: 'answered' });
    coalescer.push(text('Done.', 2));
    coalescer.flush();
    expect(sent).toEqual([
      text('I will run ls. '),
      started,
      output('a\nb\n'),
      { type: 'approvalClosed', requestId: 'q', reason: 'answered' },
      text('Done.', 2),
    ]);
  });

  it('never joins across turns, calls or runs', () => {
    const { sent, coalescer } = collect();
    coalescer.push(text('a', 1));
    coalescer.push(text('b', 2));
    coalescer.push(text('c', 2, 'r2'));
    coalescer.push(output('x', 'c1'));
    coalescer.push(output('y', 'c2'));
    coalescer.flush();
    expect(sent).toEqual([text('a', 1), text('b', 2), text('c', 2, 'r2'), output('x', 'c1'), output('y', 'c2')]);
  });

  it('starts a new event rather than growing one past the size cap, and loses nothing', () => {
    const { sent, coalescer } = collect();
    const piece = 'x'.repeat(1000);
    const pieces = Math.ceil((COALESCE_MAX_CHARS * 2.5) / piece.length);
    for (let i = 0; i < pieces; i++) coalescer.push(text(piece));
    coalescer.flush();
    const texts = sent.map((e) => (e.type === 'agent' && e.event.type === 'text_delta' ? e.event.text : ''));
    expect(texts.join('')).toBe(piece.repeat(pieces));
    expect(sent.length).toBe(3);
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(COALESCE_MAX_CHARS);
  });
});
