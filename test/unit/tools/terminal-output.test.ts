import { describe, expect, it } from 'vitest';
import { LIVE_OUTPUT_MAX_CHARS, LIVE_OUTPUT_PAUSED, LiveOutput } from '../../../src/worker/tools/terminal-output';

describe('LiveOutput (the stream the card draws while a command runs)', () => {
  it('passes output on until its cap, then says once that the rest comes with the result', () => {
    const sent: string[] = [];
    const live = new LiveOutput((c) => sent.push(c));
    live.push('a'.repeat(LIVE_OUTPUT_MAX_CHARS - 10));
    live.push('b'.repeat(100));
    live.push('c'.repeat(100));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe('b'.repeat(10) + LIVE_OUTPUT_PAUSED);
    expect(sent.join('').length).toBe(LIVE_OUTPUT_MAX_CHARS + LIVE_OUTPUT_PAUSED.length);
  });

  it('does not leave an escape sequence unfinished before its note, and survives a failing listener', () => {
    const sent: string[] = [];
    const live = new LiveOutput((c) => sent.push(c));
    live.push('x'.repeat(LIVE_OUTPUT_MAX_CHARS - 3) + '\x1b[31mred');
    expect(sent[0]).toBe('x'.repeat(LIVE_OUTPUT_MAX_CHARS - 3) + LIVE_OUTPUT_PAUSED);
    const failing = new LiveOutput(() => {
      throw new Error('gone');
    });
    expect(() => failing.push('ok')).not.toThrow();
  });
});
