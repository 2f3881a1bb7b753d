/** Decodes the inside of a bash `$'...'` (ANSI-C quoted) string the way bash does. */
const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function codePoint(n: number): string {
  return n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '';
}

export function decodeAnsiC(body: string): string {
  let out = '';
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      i++;
      continue;
    }
    const e = body[i + 1] as string;
    const simple = SIMPLE[e];
    if (simple !== undefined) {
      out += simple;
      i += 2;
      continue;
    }
    let m: RegExpMatchArray | null;
    const rest = body.slice(i + 1);
    if ((m = /^[0-7]{1,3}/.exec(rest)) !== null) {
      out += codePoint(parseInt(m[0], 8) & 0xff);
      i += 1 + m[0].length;
    } else if ((m = /^x([0-9a-fA-F]{1,2})/.exec(rest)) !== null) {
      out += codePoint(parseInt(m[1] as string, 16));
      i += 1 + m[0].length;
    } else if ((m = /^u([0-9a-fA-F]{1,4})/.exec(rest)) !== null) {
      out += codePoint(parseInt(m[1] as string, 16));
      i += 1 + m[0].length;
    } else if ((m = /^U([0-9a-fA-F]{1,8})/.exec(rest)) !== null) {
      out += codePoint(parseInt(m[1] as string, 16));
      i += 1 + m[0].length;
    } else if (e === 'c' && i + 2 < body.length) {
      out += String.fromCharCode((body.charCodeAt(i + 2) & 0x1f) >>> 0);
      i += 3;
    } else {
      out += '\\' + e; // unknown escape: kept as written
      i += 2;
    }
  }
  return out;
}
