/**
 * What `printf FORMAT ARGS...` and `echo -e` print, for the simple formats that feed other programs
 * (`printf '%s\n' a b | xargs rm`): `%s`, `%d`/`%i`, `%%` and the common backslash escapes. Anything else
 * (widths, `%b`, `%q`, `\c`...) gives null: the output is then unknown, which is never looser.
 */
const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '"': '"',
  "'": "'",
};

/** Backslash escapes as printf's format and `echo -e` read them; null for ones not modelled (`\c`, `\u`). */
function unescape(text: string, echo: boolean): string | null {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const n = text[++i] as string;
    if (SIMPLE_ESCAPES[n] !== undefined) out += SIMPLE_ESCAPES[n];
    else if (n === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1));
      if (m === null) return null;
      out += String.fromCharCode(parseInt(m[0], 16));
      i += m[0].length;
    } else if (/[0-7]/.test(n)) {
      // echo: \0NNN; printf: \NNN
      const digits = echo ? /^0?[0-7]{0,3}/.exec(text.slice(i)) : /^[0-7]{1,3}/.exec(text.slice(i));
      if (digits === null) return null;
      const d = echo ? digits[0].replace(/^0/, '') : digits[0];
      out += String.fromCharCode(parseInt(d || '0', 8));
      i += digits[0].length - 1;
    } else return null;
  }
  return out;
}

export function unescapeEcho(text: string): string | null {
  return unescape(text, true);
}

export function printfOutput(format: string, args: string[]): string | null {
  const fmt = unescape(format, false);
  if (fmt === null) return null;
  let out = '';
  let k = 0;
  for (let pass = 0; pass < 1000; pass++) {
    let consumed = false;
    for (let i = 0; i < fmt.length; i++) {
      const c = fmt[i] as string;
      if (c !== '%') {
        out += c;
        continue;
      }
      const spec = fmt[++i];
      if (spec === '%') out += '%';
      else if (spec === 's') {
        out += args[k++] ?? '';
        consumed = true;
      } else if (spec === 'd' || spec === 'i') {
        const v = args[k++] ?? '0';
        if (!/^[-+]?\d+$/.test(v)) return null;
        out += String(parseInt(v, 10));
        consumed = true;
      } else return null;
    }
    if (!consumed || k >= args.length) return out;
  }
  return null;
}
