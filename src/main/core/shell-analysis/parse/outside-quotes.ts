/**
 * A respelling at `i`, a character outside quotes: the text written in its place and the index of the last character
 * of `text` it stands for; null copies the character as it is. `out` is what was written so far.
 */
export type Respell = (text: string, i: number, out: string) => { emit: string; last: number } | null;

/**
 * Copies `text`, letting `respell` replace what stands outside single and double quotes (a backslash escape, and any
 * quoted text, is copied as written). Shared by the respellings that make syntax bash accepts readable to the grammar.
 */
export function respellOutsideQuotes(text: string, respell: Respell): string {
  let out = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== null) {
      out += c;
      if (c === '\\' && quote === '"' && i + 1 < text.length) out += text[++i];
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      out += c + text[++i];
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      out += c;
      continue;
    }
    const r = respell(text, i, out);
    if (r === null) out += c;
    else {
      out += r.emit;
      i = r.last;
    }
  }
  return out;
}
