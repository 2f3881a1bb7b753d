/**
 * Text for the auto-mode classifier's blocks: JSON whose characters cannot open, close or imitate the request's
 * framing. The agent's model wrote the call (tool name, input, paths) and can write anything into it; the person's
 * messages are data too. So `<`, `>` and `&` are `\u003c`, `\u003e`, `\u0026`, and every character outside ASCII
 * that is invisible, a space, a bracket, quote, symbol or punctuation mark, or a letter drawn like `<` or `>` is a
 * `\u` escape: no fullwidth less-than (U+FF1C), angle quote (U+2039), small form (U+FE64), tag character
 * (U+E0000 block), zero-width or bidi control can read as a tag. Letters, digits and marks of every script stay as
 * they are (the person may write in any language). JSON.parse gives back exactly the original strings: nothing is
 * lost, only spelled safely.
 */

/** Letters that Unicode's confusables list draws as `<` or `>` (the escape rule's categories cover the rest). */
const TAG_LIKE_LETTERS = new Set([0x1433, 0x1438, 0x16b2, 0x16f3f, 0x140a, 0x1405]);

const ESCAPED_CATEGORY = /[\p{C}\p{Z}\p{P}\p{S}\p{Default_Ignorable_Code_Point}]/u;

/** Whether a character outside ASCII must be written as a `\u` escape. */
function needsEscape(char: string, code: number): boolean {
  if (ESCAPED_CATEGORY.test(char) || TAG_LIKE_LETTERS.has(code)) return true;
  // A compatibility form of an ASCII sign (a fullwidth or small variant not caught above) is escaped too.
  const folded = char.normalize('NFKC');
  return folded !== char && /[<>&/\\"'`=]/.test(folded);
}

function hex4(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, '0')}`;
}

/** `value` as JSON, with every character that could frame or hide text written as an escape (see above). */
export function dataJson(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  let out = '';
  for (const char of json) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) {
      out += char === '<' || char === '>' || char === '&' || code === 0x7f ? hex4(code) : char;
      continue;
    }
    if (!needsEscape(char, code)) {
      out += char;
      continue;
    }
    // Astral characters (tag characters, symbols) as their UTF-16 pair, as JSON spells them.
    for (let i = 0; i < char.length; i++) out += hex4(char.charCodeAt(i));
  }
  return out;
}
