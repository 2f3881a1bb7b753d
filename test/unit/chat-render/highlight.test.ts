import { describe, expect, it } from 'vitest';
import { highlightLines, languageForPath } from '../../../src/renderer/src/chat/highlight';

describe('languageForPath', () => {
  it('finds the language by extension or file name; unknown files are plain', () => {
    expect(languageForPath('src/app.ts')).toBe('ts');
    expect(languageForPath('C:\\work\\main.py')).toBe('py');
    expect(languageForPath('Makefile')).toBe('makefile');
    expect(languageForPath('notes.unknownext')).toBeNull();
    expect(languageForPath('')).toBeNull();
  });
});

describe('highlightLines', () => {
  it('cuts highlighted code into lines, a multi-line comment keeping its class on every line', () => {
    const lines = highlightLines('/* one\ntwo */\nconst x = 1;', 'ts');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual([{ text: '/* one', className: 'hljs-comment' }]);
    expect(lines[1]).toEqual([{ text: 'two */', className: 'hljs-comment' }]);
    expect(lines[2]?.find((t) => t.text === 'const')?.className).toBe('hljs-keyword');
    expect(lines[2]?.map((t) => t.text).join('')).toBe('const x = 1;');
  });

  it('nested spans carry every enclosing class', () => {
    const lines = highlightLines('const s = `a ${b}`;', 'js');
    expect(lines[0]?.find((t) => t.text === '${b}')?.className).toBe('hljs-string hljs-subst');
  });

  it('without a (known) language, or too long, every line is one plain token', () => {
    expect(highlightLines('a\n\nb', null)).toEqual([
      [{ text: 'a', className: '' }],
      [],
      [{ text: 'b', className: '' }],
    ]);
    expect(highlightLines('x', 'no-such-language')).toEqual([[{ text: 'x', className: '' }]]);
    expect(highlightLines('const a = 1;', 'ts', 5)).toEqual([[{ text: 'const a = 1;', className: '' }]]);
  });
});
