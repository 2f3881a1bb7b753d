/**
 * Here-document delimiters that are only partly quoted (`<<E"O"F`, `<<'E'OF`, `<<E''OF`, `<<""EOF`): bash removes
 * the quotes to get the delimiter (`EOF`) and, because some part was quoted, reads the body as plain text. The
 * grammar only knows a delimiter that is quoted as a whole and fails on the rest. Such a delimiter is respelled
 * quoted as a whole (`<<'EOF'`), which bash reads exactly the same way (same delimiter line, same literal body),
 * so the command is analysed as written rather than being a syntax error.
 *
 * The respelling is only used when the original does not parse and the respelled text does, with a heredoc
 * starting at every respelled place (see `respelledHeredocsHold`): a `<<` that was not a here-document is never
 * changed under the analysis.
 */

import { respellOutsideQuotes } from './outside-quotes';

/** Characters that end an unquoted word. */
const METACHARACTERS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

export interface RespelledHeredocs {
  text: string;
  /** Where each respelled delimiter starts in `text`. */
  starts: number[];
}

/** The delimiter word starting at `i`: its end, its text after quote removal, and whether any part was quoted. */
function delimiterWord(text: string, i: number): { end: number; value: string; quoted: boolean } | null {
  let value = '';
  let quoted = false;
  let k = i;
  while (k < text.length && !METACHARACTERS.has(text[k] as string)) {
    const c = text[k] as string;
    if (c === "'") {
      const close = text.indexOf("'", k + 1);
      if (close < 0) return null;
      value += text.slice(k + 1, close);
      quoted = true;
      k = close + 1;
    } else if (c === '"') {
      let j = k + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        const d = text[j] as string;
        if (d === '$' || d === '`') return null; // an expansion in the delimiter: not respelled
        if (d === '\\' && j + 1 < text.length && '$`"\\\n'.includes(text[j + 1] as string)) j++;
        value += text[j] as string;
      }
      if (j >= text.length) return null;
      quoted = true;
      k = j + 1;
    } else if (c === '\\') {
      if (k + 1 >= text.length) return null;
      value += text[k + 1] as string;
      quoted = true;
      k += 2;
    } else if (c === '$' || c === '`') {
      return null;
    } else {
      value += c;
      k++;
    }
  }
  return k === i ? null : { end: k, value, quoted };
}

/**
 * Respells every partly quoted here-document delimiter outside quotes; null when there is none. Delimiters already
 * quoted as a whole (`'EOF'`, `"EOF"`, `\EOF`) and unquoted ones are left as written.
 */
export function respellHeredocDelimiters(text: string): RespelledHeredocs | null {
  if (!text.includes('<<')) return null;
  const starts: number[] = [];
  const out = respellOutsideQuotes(text, (source, i, written) => {
    if (source[i] !== '<' || source[i + 1] !== '<' || source[i + 2] === '<' || source[i - 1] === '<') return null;
    let k = i + 2;
    if (source[k] === '-') k++;
    while (source[k] === ' ' || source[k] === '\t') k++;
    const operator = source.slice(i, k);
    const word = delimiterWord(source, k);
    const raw = word === null ? '' : source.slice(k, word.end);
    const whole = /^'[^']*'$|^"[^"\\$`]*"$|^\\[^'"\\]*$/.test(raw);
    if (word !== null && word.quoted && !whole && !/['\n]/.test(word.value) && word.value !== '') {
      starts.push(written.length + operator.length);
      return { emit: `${operator}'${word.value}'`, last: word.end - 1 };
    }
    return { emit: operator, last: k - 1 };
  });
  return starts.length === 0 ? null : { text: out, starts };
}

/** A node as much as the check below reads of it. */
interface HeredocNode {
  readonly type: string;
  readonly startIndex: number;
  readonly children: readonly HeredocNode[];
}

/** True when a here-document starts at every respelled place in the tree parsed from the respelled text. */
export function respelledHeredocsHold(root: HeredocNode, starts: readonly number[]): boolean {
  const found = new Set<number>();
  const visit = (n: HeredocNode): void => {
    if (n.type === 'heredoc_start') found.add(n.startIndex);
    for (const c of n.children) visit(c);
  };
  visit(root);
  return starts.every((s) => found.has(s));
}
