import { describe, expect, it } from 'vitest';
import { codeSegments, parseFencedBlock } from '../../../src/renderer/src/chat/fenced-code';

describe('parseFencedBlock', () => {
  it('takes a closed fence apart: language, lines, closed', () => {
    expect(parseFencedBlock('```ts\nconst a = 1;\n\nlet b;\n```')).toEqual({
      language: 'ts',
      lines: ['const a = 1;', '', 'let b;'],
      closed: true,
    });
    expect(parseFencedBlock('~~~~ python extra words\nx\n~~~~~')).toEqual({
      language: 'python',
      lines: ['x'],
      closed: true,
    });
    expect(parseFencedBlock('```\n```')).toEqual({ language: '', lines: [], closed: true });
  });

  it('an unterminated fence is open (streaming); a shorter or other closing fence does not close it', () => {
    expect(parseFencedBlock('```js\nlet a')).toEqual({ language: 'js', lines: ['let a'], closed: false });
    expect(parseFencedBlock('````\n```\nx')).toEqual({ language: '', lines: ['```', 'x'], closed: false });
    expect(parseFencedBlock('~~~\n```\n')).toEqual({ language: '', lines: ['```', ''], closed: false });
  });

  it('removes the opening fence’s indentation from the code lines', () => {
    expect(parseFencedBlock('  ```\n    four\n  two\nnone\n  ```')?.lines).toEqual(['  four', 'two', 'none']);
  });

  it('anything else is left to the markdown renderer', () => {
    expect(parseFencedBlock('text\n```\nx\n```')).toBeNull(); // not a fence first
    expect(parseFencedBlock('```\nx\n```\nafter the fence')).toBeNull(); // text follows in the same block
    expect(parseFencedBlock('```a`b\nx')).toBeNull(); // inline code, not a fence
    expect(parseFencedBlock('    ```\nx\n```')).toBeNull(); // indented code block
  });
});

describe('codeSegments', () => {
  const numbered = (n: number, blankEvery = 0) =>
    Array.from({ length: n }, (_, i) => (blankEvery && i % blankEvery === blankEvery - 1 ? '' : `line ${i}`));

  it('short code is one segment; joining the segments gives the code back', () => {
    expect(codeSegments(['a', '', 'b'])).toEqual(['a\n\nb']);
    expect(codeSegments([])).toEqual(['']);
    const lines = numbered(1000, 25);
    expect(codeSegments(lines).join('\n')).toBe(lines.join('\n'));
  });

  it('cuts at a blank line after 40 lines, and at 150 lines without one', () => {
    const withBlanks = codeSegments(numbered(200, 50)).map((s) => s.split('\n').length);
    expect(withBlanks).toEqual([50, 50, 50, 50]);
    expect(codeSegments(numbered(400)).map((s) => s.split('\n').length)).toEqual([150, 150, 100]);
  });

  it('finished segments stay the same while code is appended line by line', () => {
    const lines = numbered(500, 30);
    let previous: string[] = [];
    for (let n = 1; n <= lines.length; n++) {
      const segments = codeSegments(lines.slice(0, n));
      previous.slice(0, -1).forEach((segment, i) => expect(segments[i]).toBe(segment));
      previous = segments;
    }
  });
});
