/**
 * Untrusted text as a person must see it: every character that is invisible, that changes how text around it is
 * shown, or that a terminal would act on, becomes a visible marker such as `⟨U+202E⟩`, `⟨CR⟩` or `⟨ESC⟩`.
 * Pure TypeScript (no DOM, no Node): the renderer's display module builds on it, and so do the CLI's prompts.
 *
 * What is marked is defined by Unicode properties rather than a hand list, so new invisible characters of the
 * engine's Unicode version are covered: control characters (Cc, but not LF or TAB), format characters (Cf: the
 * bidirectional controls, zero-width characters, the BOM, tag characters...), line and paragraph separators,
 * default-ignorable code points (variation selectors, Hangul fillers, ...), noncharacters, lone surrogates, the
 * Braille blank, and the marker brackets themselves (so a literal "⟨U+202E⟩" in the text cannot pass for a
 * marker). In `strict` mode (commands, paths, rules, hooks: text that runs) every space other than U+0020 is
 * marked too, and the joiners that are harmless inside emoji and joining scripts are marked as well.
 */

export type MarkCategory =
  /** C0/C1 controls, DEL: a terminal acts on them. */
  | 'control'
  /** Bidirectional controls (U+202A–U+202E, U+2066–U+2069, LRM, RLM, ALM): reorder the text around them. */
  | 'bidi'
  /** Zero-width and other invisible characters. */
  | 'invisible'
  /** Line or paragraph separators other than LF. */
  | 'separator'
  /** A space that is not U+0020 (strict mode). */
  | 'space'
  /** A long run of combining marks (they can be stacked over neighbouring text). */
  | 'combining'
  /** A literal marker bracket or newline sign in the text. */
  | 'lookalike'
  /** The CR of a CRLF line ending, outside strict mode: shown, but not a reason for a warning. */
  | 'line-ending';

export type VisibleSegment =
  | { kind: 'text'; text: string }
  /** A real line break (LF). */
  | { kind: 'newline' }
  /** `text` is the marker as shown (e.g. `⟨U+202E⟩`); `title` says what it stands for. */
  | { kind: 'mark'; text: string; title: string; category: MarkCategory; codePoint: number; count: number };

export interface VisibleOptions {
  /** Text that runs or decides (commands, paths, rules, hooks): unusual spaces and contextual joiners are marked too. */
  strict?: boolean;
}

const MARK_OPEN = '\u27E8';
const MARK_CLOSE = '\u27E9';
/** Stands for a line break in one-line displays. */
export const NEWLINE_SIGN = '\u23CE';
/** Combining marks kept on one character; the rest of a longer run becomes one marker. */
const MAX_COMBINING_RUN = 4;

const CONTROL_NAMES: Record<number, string> = {
  0x00: 'NUL',
  0x07: 'BEL',
  0x08: 'BS',
  0x0b: 'VT',
  0x0c: 'FF',
  0x0d: 'CR',
  0x1b: 'ESC',
  0x7f: 'DEL',
};

const LONG_NAMES: Record<number, string> = {
  0x00: 'NULL',
  0x07: 'BELL',
  0x08: 'BACKSPACE: moves the cursor back over text',
  0x0b: 'LINE TABULATION',
  0x0c: 'FORM FEED',
  0x0d: 'CARRIAGE RETURN: a terminal goes back and overwrites the line',
  0x1b: 'ESCAPE: starts a terminal control sequence',
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0xa0: 'NO-BREAK SPACE',
  0xad: 'SOFT HYPHEN (invisible)',
  0x034f: 'COMBINING GRAPHEME JOINER (invisible)',
  0x061c: 'ARABIC LETTER MARK (changes text direction)',
  0x115f: 'HANGUL CHOSEONG FILLER (blank)',
  0x1160: 'HANGUL JUNGSEONG FILLER (blank)',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR (invisible)',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK (changes text direction)',
  0x200f: 'RIGHT-TO-LEFT MARK (changes text direction)',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING (changes text direction)',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING (changes text direction)',
  0x202c: 'POP DIRECTIONAL FORMATTING (changes text direction)',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE (changes text direction)',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE (reverses the text after it)',
  0x2060: 'WORD JOINER (invisible)',
  0x2066: 'LEFT-TO-RIGHT ISOLATE (changes text direction)',
  0x2067: 'RIGHT-TO-LEFT ISOLATE (changes text direction)',
  0x2068: 'FIRST STRONG ISOLATE (changes text direction)',
  0x2069: 'POP DIRECTIONAL ISOLATE (changes text direction)',
  0x2800: 'BRAILLE PATTERN BLANK (blank)',
  0x3164: 'HANGUL FILLER (blank)',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE / byte order mark',
  0xffa0: 'HALFWIDTH HANGUL FILLER (blank)',
  [MARK_OPEN.codePointAt(0) ?? 0]: 'a literal marker bracket in the text',
  [MARK_CLOSE.codePointAt(0) ?? 0]: 'a literal marker bracket in the text',
  [NEWLINE_SIGN.codePointAt(0) ?? 0]: 'a literal newline sign in the text',
};

const CATEGORY_NAMES: Record<MarkCategory, string> = {
  control: 'control character',
  bidi: 'bidirectional control (changes text direction)',
  invisible: 'invisible character',
  separator: 'line separator',
  space: 'a space that is not an ordinary space',
  combining: 'combining marks',
  lookalike: 'a character that looks like a marker',
  'line-ending': 'carriage return of a CRLF line ending',
};

/** Anything that might need a marker: a quick test that lets ordinary text through untouched. */
const SUSPECT =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\p{Cs}\u2800\u27E8\u27E9\u23CE\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]|\p{M}{5}/u;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const ALWAYS_MARKED = /[\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\p{Cs}\u2800]/u;
const UNUSUAL_SPACE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/u;
const LOOKALIKE = /[\u27E8\u27E9\u23CE]/u;
const COMBINING = /\p{M}/u;
const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Emoji_Modifier}]/u;
const EMOJI = /\p{Emoji}/u;
/** Scripts that need ZWJ / ZWNJ to be written correctly. */
const JOINING_SCRIPT =
  /[\p{Script_Extensions=Arabic}\p{Script_Extensions=Syriac}\p{Script_Extensions=Nko}\p{Script_Extensions=Mongolian}\p{Script_Extensions=Devanagari}\p{Script_Extensions=Bengali}\p{Script_Extensions=Gurmukhi}\p{Script_Extensions=Gujarati}\p{Script_Extensions=Oriya}\p{Script_Extensions=Tamil}\p{Script_Extensions=Telugu}\p{Script_Extensions=Kannada}\p{Script_Extensions=Malayalam}\p{Script_Extensions=Sinhala}\p{Script_Extensions=Khmer}\p{Script_Extensions=Myanmar}\p{Script_Extensions=Tibetan}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;

const hex = (cp: number): string => cp.toString(16).toUpperCase().padStart(4, '0');

/** The marker's label: a short name for the common controls, else the code point. */
function label(cp: number): string {
  return CONTROL_NAMES[cp] ?? `U+${hex(cp)}`;
}

function categoryOf(cp: number, ch: string): MarkCategory {
  if (LOOKALIKE.test(ch)) return 'lookalike';
  if (BIDI.test(ch)) return 'bidi';
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return cp === 0x85 ? 'separator' : 'control';
  if (cp === 0x2028 || cp === 0x2029) return 'separator';
  if (UNUSUAL_SPACE.test(ch)) return 'space';
  return 'invisible';
}

function markTitle(cp: number, category: MarkCategory): string {
  const name =
    LONG_NAMES[cp] ??
    (cp >= 0xe0000 && cp <= 0xe007f
      ? 'TAG CHARACTER (invisible)'
      : cp >= 0xfe00 && cp <= 0xfe0f
        ? `VARIATION SELECTOR-${cp - 0xfe00 + 1} (invisible)`
        : CATEGORY_NAMES[category]);
  return `U+${hex(cp)}: ${name}`;
}

const isJoiningLetter = (ch: string | undefined): boolean =>
  ch !== undefined && LETTER_OR_MARK.test(ch) && JOINING_SCRIPT.test(ch);

/** A joiner or presentation selector doing its ordinary job inside an emoji or a joining script. */
function harmlessInContext(cp: number, prev: string | undefined, next: string | undefined): boolean {
  if (cp === 0xfe0f || cp === 0xfe0e)
    return prev !== undefined && EMOJI.test(prev) && prev !== '\uFE0F' && prev !== '\uFE0E';
  if (cp === 0x200d) {
    if (
      prev !== undefined &&
      next !== undefined &&
      (PICTOGRAPH.test(prev) || prev === '\uFE0F') &&
      PICTOGRAPH.test(next)
    )
      return true;
    return isJoiningLetter(prev) && isJoiningLetter(next);
  }
  if (cp === 0x200c) return isJoiningLetter(prev) && isJoiningLetter(next);
  return false;
}

/** Whether a character must be shown as a marker (combining-mark runs are handled by the caller). */
function needsMark(
  cp: number,
  ch: string,
  prev: string | undefined,
  next: string | undefined,
  strict: boolean,
): boolean {
  if (cp === 0x0a || cp === 0x09) return false;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return true;
  if (LOOKALIKE.test(ch)) return true;
  if (UNUSUAL_SPACE.test(ch)) return strict;
  if (!ALWAYS_MARKED.test(ch)) return false;
  return strict || !harmlessInContext(cp, prev, next);
}

/** Whether `text` needs no marker at all (the common case, checked with one regular expression). */
export function isPlainText(text: string): boolean {
  return !SUSPECT.test(text);
}

/**
 * The text cut into plain runs, real line breaks and markers. Identical invisible characters in a row make one
 * marker with a count (`⟨U+200B ×40⟩`).
 */
export function visibleSegments(text: string, options: VisibleOptions = {}): VisibleSegment[] {
  const strict = options.strict === true;
  if (isPlainText(text)) return splitLines(text);
  const chars = Array.from(text);
  const segments: VisibleSegment[] = [];
  let plain = '';
  let combiningRun = 0;
  /** The previous character if it was shown as itself (a joiner after a marker joins nothing: it is marked too). */
  let kept: string | undefined;
  const flush = (): void => {
    if (plain) segments.push({ kind: 'text', text: plain });
    plain = '';
  };
  const pushMark = (cp: number, category: MarkCategory, markText: string): void => {
    flush();
    const last = segments[segments.length - 1];
    if (last?.kind === 'mark' && last.codePoint === cp && last.category === category && category !== 'combining') {
      last.count++;
      last.text = `${MARK_OPEN}${label(cp)} \u00D7${last.count}${MARK_CLOSE}`;
      return;
    }
    segments.push({ kind: 'mark', text: markText, title: markTitle(cp, category), category, codePoint: cp, count: 1 });
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === 0x0a) {
      flush();
      segments.push({ kind: 'newline' });
      combiningRun = 0;
      kept = undefined;
      continue;
    }
    if (COMBINING.test(ch) && !ALWAYS_MARKED.test(ch)) {
      combiningRun++;
      if (combiningRun <= MAX_COMBINING_RUN) {
        plain += ch;
        kept = ch;
        continue;
      }
      let end = i;
      while (
        end + 1 < chars.length &&
        COMBINING.test(chars[end + 1] as string) &&
        !ALWAYS_MARKED.test(chars[end + 1] as string)
      )
        end++;
      const extra = end - i + 1;
      flush();
      segments.push({
        kind: 'mark',
        text: `${MARK_OPEN}+${extra} combining marks${MARK_CLOSE}`,
        title: `${extra} more combining marks on one character (they can cover neighbouring text)`,
        category: 'combining',
        codePoint: cp,
        count: extra,
      });
      i = end;
      kept = undefined;
      continue;
    }
    combiningRun = 0;
    if (!needsMark(cp, ch, kept, chars[i + 1], strict)) {
      plain += ch;
      kept = ch;
      continue;
    }
    kept = undefined;
    const category: MarkCategory = cp === 0x0d && chars[i + 1] === '\n' && !strict ? 'line-ending' : categoryOf(cp, ch);
    pushMark(cp, category, `${MARK_OPEN}${label(cp)}${MARK_CLOSE}`);
  }
  flush();
  return segments;
}

function splitLines(text: string): VisibleSegment[] {
  if (!text.includes('\n')) return text ? [{ kind: 'text', text }] : [];
  const segments: VisibleSegment[] = [];
  text.split('\n').forEach((line, i) => {
    if (i > 0) segments.push({ kind: 'newline' });
    if (line) segments.push({ kind: 'text', text: line });
  });
  return segments;
}

export interface VisibleTextOptions extends VisibleOptions {
  /** `keep`: real line breaks (default); `sign`: each shown as ⏎ on one line. */
  newlines?: 'keep' | 'sign';
}

/** The text exactly as shown, markers included, as one string (for terminals, copy buttons and tooltips). */
export function visibleText(text: string, options: VisibleTextOptions = {}): string {
  if (isPlainText(text) && options.newlines !== 'sign') return text;
  const newline = options.newlines === 'sign' ? NEWLINE_SIGN : '\n';
  return visibleSegments(text, options)
    .map((s) => (s.kind === 'text' ? s.text : s.kind === 'newline' ? newline : s.text))
    .join('');
}

export interface MarkSummary {
  /** Markers that are a reason to warn (every category but a CRLF's CR). */
  count: number;
  categories: MarkCategory[];
  /** Line breaks in the text. */
  newlines: number;
}

/** What a display of `text` needed: how many markers (and of which kinds), how many line breaks. */
export function summariseMarks(text: string, options: VisibleOptions = {}): MarkSummary {
  let newlines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines++;
  if (isPlainText(text)) return { count: 0, categories: [], newlines };
  let count = 0;
  const categories = new Set<MarkCategory>();
  for (const s of visibleSegments(text, options)) {
    if (s.kind !== 'mark' || s.category === 'line-ending') continue;
    count += s.count;
    categories.add(s.category);
  }
  return { count, categories: [...categories], newlines };
}

/** One sentence explaining the markers of a summary, e.g. for the top of an approval. */
export function describeMarks(summary: MarkSummary): string {
  const kinds = summary.categories.map((c) => CATEGORY_NAMES[c]);
  const what = kinds.length ? kinds.join(', ') : 'hidden characters';
  return `${summary.count} hidden or control character${summary.count === 1 ? '' : 's'} (${what}) shown as ${MARK_OPEN}…${MARK_CLOSE} markers`;
}

/** The legend a copy of marked text carries. */
export const MARKER_LEGEND = `${MARK_OPEN}U+XXXX${MARK_CLOSE}, ${MARK_OPEN}CR${MARK_CLOSE}, ${MARK_OPEN}ESC${MARK_CLOSE}… stand for characters that are invisible or change how text is shown; the markers are copied, not the characters.`;
