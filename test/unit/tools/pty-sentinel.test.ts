import { describe, expect, it } from 'vitest';
import { EndMarkerFilter } from '../../../src/worker/tools/pty-sentinel';

const MARKER = '__gatehouse_done_0123456789abcdef';

describe('EndMarkerFilter', () => {
  const stream = `line 1\r\nline 2\r\n\r\n${MARKER}:42\r\n\r\n`;

  it('passes the output, hides the marker and reads the exit code, however the stream is split', () => {
    for (let cut1 = 0; cut1 <= stream.length; cut1++) {
      for (const cut2 of [cut1, Math.min(stream.length, cut1 + 7), stream.length]) {
        const f = new EndMarkerFilter(MARKER);
        const out =
          f.push(stream.slice(0, cut1)) + f.push(stream.slice(cut1, cut2)) + f.push(stream.slice(cut2)) + f.flush();
        expect(out, `cuts ${cut1},${cut2}`).toBe('line 1\r\nline 2\r\n');
        expect(f.exitCode).toBe(42);
      }
    }
  });

  it('gives back held text when the stream ends without the marker (killed command)', () => {
    const f = new EndMarkerFilter(MARKER);
    expect(f.push('partial\r\n__gate')).toBe('partial');
    expect(f.flush()).toBe('\r\n__gate');
    expect(f.exitCode).toBeNull();
  });

  it('ignores a wrong marker printed by the command', () => {
    const f = new EndMarkerFilter(MARKER);
    expect(f.push('\r\n__gatehouse_done_ffffffffffffffff:0\r\nmore') + f.flush()).toBe(
      '\r\n__gatehouse_done_ffffffffffffffff:0\r\nmore',
    );
    expect(f.exitCode).toBeNull();
  });
});
