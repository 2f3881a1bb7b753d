/**
 * Respellings for syntax bash accepts but tree-sitter-bash rejects (contract "Assurance: Syntax"), so such a
 * command is still analysed (deny list, rules) instead of only being "unreadable":
 * - a brace word where a command or argument starts (`{sudo,reboot}`, `x; {rm,-rf,/}`): bash brace-expands it,
 *   the grammar reads `{` as the start of a group. Prefixing an empty quoted string (`''{sudo,reboot}`) keeps
 *   bash's words and lets the grammar read a word.
 * - `<>` (open read-write), which the grammar does not know: `1<>file` is respelled `1>>file` (a write) and
 *   `<>file`/`0<>file` `<file` (standard input read from it).
 * The result is only used when it parses cleanly, and the command stays unreadable (it asks) either way.
 * Quoted text is left alone: only characters outside quotes are respelled.
 */
export function repairedSource(text: string): string | null {
  let out = '';
  let changed = false;
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
    const prev = out.length === 0 ? '' : (out[out.length - 1] as string);
    const atWordStart = prev === '' || /[\s;&|()]/.test(prev);
    if (c === '{' && atWordStart && /^\{[^\s{}]*,[^\s]*\}/.test(text.slice(i))) {
      out += "''{";
      changed = true;
      continue;
    }
    const fdRw = /^(\d*)<>/.exec(text.slice(i));
    if (fdRw !== null && (atWordStart || fdRw[1] === '')) {
      const fd = fdRw[1] as string;
      out += fd === '' || fd === '0' ? '<' : `${fd}>>`;
      i += fdRw[0].length - 1;
      changed = true;
      continue;
    }
    out += c;
  }
  return changed ? out : null;
}
