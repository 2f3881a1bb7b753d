/**
 * How `xargs` splits the text on its input into arguments (GNU semantics), so literal input piped into it
 * (`echo ~ | xargs rm -rf`) is analysed as the arguments it becomes.
 */
export interface XargsOptions {
  /** `-0`: items end at NUL. */
  nul: boolean;
  /** `-d X`: items end at X (quotes and backslashes are not special). */
  delimiter: string | null;
  /** `-I R`: each input line is one item, replacing R in the command. */
  replace: string | null;
  /** `-E EOF`: input stops at this item. */
  eof: string | null;
}

function decodeDelimiter(d: string): string {
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\' };
  if (d.length === 2 && d.startsWith('\\')) return escapes[d[1] as string] ?? (d[1] as string);
  return d.slice(0, 1);
}

/** Default splitting: blanks and newlines separate items; quotes and backslashes group and escape. */
function splitBlanks(text: string): string[] | null {
  const items: string[] = [];
  let cur = '';
  let inItem = false;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\n') return null; // xargs: unmatched quote
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inItem = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inItem = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inItem) items.push(cur);
      cur = '';
      inItem = false;
    } else {
      cur += c;
      inItem = true;
    }
  }
  if (quote !== null) return null;
  if (inItem) items.push(cur);
  return items;
}

/** The items xargs makes of `text`, or null when it would refuse the input. */
export function xargsItems(text: string, opts: XargsOptions): string[] | null {
  let items: string[] | null;
  if (opts.nul || opts.delimiter !== null) {
    const sep = opts.nul ? '\0' : decodeDelimiter(opts.delimiter as string);
    items = text.split(sep);
    if (items[items.length - 1] === '' || (sep !== '\n' && items[items.length - 1] === '\n')) items.pop();
  } else if (opts.replace !== null) {
    items = text
      .split('\n')
      .map((l) => l.replace(/^[ \t]+/, ''))
      .filter((l) => l.length > 0);
  } else {
    items = splitBlanks(text);
  }
  if (items === null) return null;
  if (opts.eof !== null && opts.eof !== '') {
    const stop = items.indexOf(opts.eof);
    if (stop >= 0) items = items.slice(0, stop);
  }
  return items;
}
