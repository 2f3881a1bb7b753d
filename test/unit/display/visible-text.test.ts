import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeMarks,
  isPlainText,
  summariseMarks,
  visibleSegments,
  visibleText,
} from '../../../src/shared/visible-text';

/** Characters that must never reach a display unmarked: what a view would show as nothing, or act on. */
const HIDDEN =
  /[\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\p{Cs}\u2800]|[^\P{Cc}\n\t]/u;
const UNUSUAL_SPACE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/u;

const charOf = (cp: number): string =>
  cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('visibleText over the whole Unicode range', () => {
  it('strict: every code point is either shown as itself or as a marker, and no hidden character survives', () => {
    const failures: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = charOf(cp);
      const shown = visibleText(ch, { strict: true });
      const hidden = HIDDEN.test(ch) || UNUSUAL_SPACE.test(ch) || /[\u27E8\u27E9\u23CE]/u.test(ch);
      const ok = hidden ? shown.startsWith('\u27E8') && shown.endsWith('\u27E9') && !HIDDEN.test(shown) : shown === ch;
      if (!ok && failures.length < 20) failures.push(`U+${cp.toString(16)} -> ${JSON.stringify(shown)}`);
    }
    expect(failures).toEqual([]);
  });

  it('default: a lone joiner or selector is marked like any other invisible character', () => {
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = charOf(cp);
      if (!HIDDEN.test(ch)) continue;
      const shown = visibleText(`a${ch}b`);
      if (HIDDEN.test(shown)) throw new Error(`U+${cp.toString(16)} survived: ${JSON.stringify(shown)}`);
    }
  });

  it.each([
    ['C0 controls but TAB and LF', [...range(0x00, 0x08), ...range(0x0b, 0x1f)]],
    ['DEL and C1 controls', range(0x7f, 0x9f)],
    ['bidi embeddings and overrides', range(0x202a, 0x202e)],
    ['bidi isolates', range(0x2066, 0x2069)],
    ['zero-width characters and direction marks', [...range(0x200b, 0x200f), 0x2060, 0xfeff, 0x061c, 0x180e, 0x00ad]],
    ['tag characters (ASCII smuggling)', range(0xe0000, 0xe007f)],
    ['variation selectors', [...range(0xfe00, 0xfe0f), ...range(0xe0100, 0xe01ef)]],
    ['invisible operators and deprecated format characters', [...range(0x2061, 0x2064), ...range(0x206a, 0x206f)]],
    ['blank-looking letters', [0x115f, 0x1160, 0x3164, 0xffa0, 0x2800]],
    ['line and paragraph separators', [0x2028, 0x2029, 0x0085]],
    ['interlinear annotations', range(0xfff9, 0xfffb)],
  ])('%s are each marked with their code point or name', (_name, cps) => {
    for (const cp of cps) {
      const shown = visibleText(`x${charOf(cp)}y`);
      expect(shown, `U+${cp.toString(16)}`).toMatch(/^x⟨(U\+[0-9A-F]{4,6}|NUL|BEL|BS|VT|FF|CR|ESC|DEL)⟩y$/);
      if (!/[A-Z]{2,3}⟩/.test(shown)) expect(shown).toContain(cp.toString(16).toUpperCase().padStart(4, '0'));
    }
  });

  it('random strings: the output never holds a hidden character, and removing the markers gives back the visible rest', () => {
    const pieces = fc.constantFrom(
      'a',
      'ls',
      ' ',
      '\n',
      '\t',
      '\u202E',
      '\u2066',
      '\u2069',
      '\u200B',
      '\u200D',
      '\u200C',
      '\uFE0F',
      '\u00A0',
      '\r',
      '\x1b',
      '\u{E0041}',
      '👩',
      '💻',
      'ب',
      'ی',
      '\u0301',
      '⟨',
      '⟩',
      '#',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), fc.boolean(), (parts, strict) => {
        const text = parts.join('');
        const shown = visibleText(text, { strict });
        // eslint-disable-next-line no-control-regex -- looking for control characters is the point
        if (/[\u202A-\u202E\u2066-\u2069\u200B\r\x1b\u{E0041}]/u.test(shown)) return false;
        if (strict && HIDDEN.test(shown)) return false;
        if (strict && shown.includes('\u00A0')) return false;
        // Every ZWJ / ZWNJ / VS16 left is doing its job inside an emoji or a joining script.
        const chars = Array.from(shown);
        return chars.every((c, i) => {
          if (c === '\u200D')
            return (
              /[\p{Extended_Pictographic}\uFE0F\p{Emoji_Modifier}\p{Script=Arabic}]/u.test(chars[i - 1] ?? '') &&
              /[\p{Extended_Pictographic}\p{Script=Arabic}]/u.test(chars[i + 1] ?? '')
            );
          if (c === '\u200C')
            return /\p{Script=Arabic}/u.test(chars[i - 1] ?? '') && /\p{Script=Arabic}/u.test(chars[i + 1] ?? '');
          if (c === '\uFE0F') return /\p{Emoji}/u.test(chars[i - 1] ?? '');
          return true;
        });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('visibleText on the attacks of issue 13', () => {
  it('the Trojan Source command shows its real order: touch is not a comment', () => {
    const command = 'ls \u202E\u2066; touch X\u2069 \u2066#\u2069\u202C';
    expect(visibleText(command)).toBe('ls ⟨U+202E⟩⟨U+2066⟩; touch X⟨U+2069⟩ ⟨U+2066⟩#⟨U+2069⟩⟨U+202C⟩');
    expect(summariseMarks(command)).toEqual({ count: 6, categories: ['bidi'], newlines: 0 });
    expect(describeMarks(summariseMarks(command))).toBe(
      '6 hidden or control characters (bidirectional control (changes text direction)) shown as ⟨…⟩ markers',
    );
  });

  it('zero-width characters in a path and a rule are visible; runs of one are counted', () => {
    expect(visibleText('src/\u200Bindex.ts')).toBe('src/⟨U+200B⟩index.ts');
    expect(visibleText('Bash(npm\u200B\u200B\u200B test)', { strict: true })).toBe('Bash(npm⟨U+200B ×3⟩ test)');
  });

  it('newlines: kept as line breaks, or shown as ⏎ on one line (never collapsed to a space)', () => {
    expect(visibleText('echo safe\ntouch X')).toBe('echo safe\ntouch X');
    expect(visibleText('echo safe\ntouch X', { newlines: 'sign' })).toBe('echo safe⏎touch X');
    expect(summariseMarks('a\nb\nc').newlines).toBe(2);
  });

  it('terminal controls are named: a CR overwrite and an escape sequence show', () => {
    expect(visibleText('safe\rrun curl | sh\x1b[8m')).toBe('safe⟨CR⟩run curl | sh⟨ESC⟩[8m');
    // A CRLF line ending is shown but is no reason to warn, except in text that runs.
    expect(summariseMarks('a\r\nb').count).toBe(0);
    expect(summariseMarks('a\r\nb', { strict: true }).count).toBe(1);
  });

  it('emoji and joining scripts keep their joiners in prose, but not in strict text', () => {
    const family = '👩\u200D👩\u200D👧';
    const heart = '❤\uFE0F';
    const persian = 'می\u200Cخواهم';
    for (const text of [family, heart, persian]) {
      expect(visibleText(text)).toBe(text);
      expect(isPlainText(text)).toBe(false);
      expect(visibleText(text, { strict: true })).not.toBe(text);
    }
    expect(visibleText('ab\u200Dcd')).toBe('ab⟨U+200D⟩cd');
    expect(visibleText('12\u200D34')).toBe('12⟨U+200D⟩34');
  });

  it('a literal marker in the text cannot pass for a marker', () => {
    expect(visibleText('⟨U+202E⟩')).toBe('⟨U+27E8⟩U+202E⟨U+27E9⟩');
    expect(visibleText('a⏎b', { newlines: 'sign' })).toBe('a⟨U+23CE⟩b');
  });

  it('non-ASCII spaces are marked in strict text only', () => {
    expect(visibleText('rm\u00A0-rf', { strict: true })).toBe('rm⟨U+00A0⟩-rf');
    expect(visibleText('10\u00A0km')).toBe('10\u00A0km');
  });

  it('a stack of combining marks keeps four and names the rest', () => {
    const zalgo = `a${'\u0301'.repeat(30)}b`;
    expect(visibleText(zalgo)).toBe(`a${'\u0301'.repeat(4)}⟨+26 combining marks⟩b`);
    expect(visibleText('e\u0301')).toBe('e\u0301');
  });

  it('segments carry a title naming the character', () => {
    const [, mark] = visibleSegments('a\u202Eb');
    expect(mark).toMatchObject({
      kind: 'mark',
      text: '⟨U+202E⟩',
      category: 'bidi',
      title: 'U+202E: RIGHT-TO-LEFT OVERRIDE (reverses the text after it)',
    });
  });
});
