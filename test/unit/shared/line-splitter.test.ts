import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../../src/shared/line-splitter';

const TOO_LONG = Symbol('too long');
type Event = string | typeof TOO_LONG;

/** Feeds `chunks`, then ends: what a reader of the lines sees, and the unterminated rest. */
function split(chunks: string[], maxChars?: number): { events: Event[]; rest: string } {
  const events: Event[] = [];
  const splitter = new LineSplitter((line) => events.push(line), { maxChars, onTooLong: () => events.push(TOO_LONG) });
  for (const chunk of chunks) splitter.push(chunk);
  return { events, rest: splitter.end() };
}

/** The same from the whole text at once, by `String.split`: the model the splitter must match. */
function model(text: string, maxChars = Number.POSITIVE_INFINITY): { events: Event[]; rest: string } {
  const parts = text.split('\n');
  const last = parts.pop() ?? '';
  const events: Event[] = parts.map((line) => (line.length > maxChars ? TOO_LONG : line));
  if (last.length > maxChars) return { events: [...events, TOO_LONG], rest: '' };
  return { events, rest: last };
}

describe('LineSplitter', () => {
  it('cuts at LF only, across chunks, and keeps the unterminated rest for the end', () => {
    expect(split(['a\r\nb', 'c\n', '\nd'])).toEqual({ events: ['a\r', 'bc', ''], rest: 'd' });
    expect(split([])).toEqual({ events: [], rest: '' });
  });

  it('reports an over-long line once, never hands on any part of it, and goes on after its newline', () => {
    // Complete in one chunk, then one that grows past the limit over three chunks before its newline comes.
    const { events, rest } = split(['12345\nok\n', 'abcd', 'efgh', 'ij\nnext\n'], 4);
    expect(events).toEqual([TOO_LONG, 'ok', TOO_LONG, 'next']);
    expect(rest).toBe('');
    // A line of exactly the limit is kept; an over-long unterminated rest is dropped at the end, reported once.
    expect(split(['abcd\n', 'abcde'], 4)).toEqual({ events: ['abcd', TOO_LONG], rest: '' });
  });

  it('a 4 MB line in 64 KB chunks: dropped whole, and its tail (a valid-looking command) is never a line', () => {
    const max = 4_000_000;
    const junk = 'x'.repeat(max + 10);
    const chunks: string[] = [];
    for (let i = 0; i < junk.length; i += 65_536) chunks.push(junk.slice(i, i + 65_536));
    const { events } = split([...chunks, '{"type":"approve"}\n', 'after\n'], max);
    expect(events).toEqual([TOO_LONG, 'after']);
  });

  it('any text cut into any chunks gives what String.split gives (fast-check prints the seed of a failure)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r', 'é', '😀'), maxLength: 60 });
    fc.assert(
      fc.property(text, fc.array(fc.nat(60), { maxLength: 8 }), fc.option(fc.nat(8)), (t, cuts, max) => {
        const at = [...new Set(cuts.map((c) => Math.min(c, t.length)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, i) => t.slice(from, at[i] ?? t.length));
        expect(split(chunks, max ?? undefined)).toEqual(model(t, max ?? undefined));
      }),
      { numRuns: 2_000 },
    );
  });
});
