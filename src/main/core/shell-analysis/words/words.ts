import type { SyntaxNode as Node } from '../parse/syntax-node';
import { decodeAnsiC } from './ansi-c';

/**
 * Word evaluation: what the shell makes of a word node before the program sees it. Quotes and escapes are
 * removed; expansions keep their text as written and mark the word as expanding; command and process
 * substitutions found anywhere in the word are handed to `hooks.code` (they are code that runs).
 */

/** One character of a word and whether it was quoted or escaped (quoted characters are not globbed or brace-expanded). */
export interface WordChar {
  c: string;
  q: boolean;
}

/** A run of characters that are all quoted or all unquoted. */
interface Chunk {
  text: string;
  q: boolean;
}

/** A word as the lexer produced it, before brace expansion. */
export interface RawWord {
  chunks: Chunk[];
  /** Contains a parameter/arithmetic expansion or a command/process substitution. */
  expands: boolean;
  /** The expansions and substitutions outside double quotes, as written: bash splits and globs their values. */
  unquoted?: string[];
}

export interface WordHooks {
  /** A `$(..)`, backtick or `<(..)`/`>(..)` node: its statements run. */
  code(node: Node): void;
  /** Bash code found as text the grammar did not parse (a backquoted command in a here-document): it runs. */
  codeText?(text: string): void;
  /** Something this evaluator does not understand: the command becomes unreadable. */
  unreadable(reason: string): void;
  /** A `${..}` expansion: checked for code from data (indirection, `@P`, offsets, subscripts). */
  expansion?(node: Node): void;
  /** A `$((..))` expansion: its variables' values are evaluated as code. */
  arithmetic?(node: Node): void;
  /** True when `$PWD` and `~+` still name the working directory (the script did not assign PWD). */
  pwdIsCwd?(): boolean;
}

/** `$PWD` or `${PWD}` exactly. */
function isPwdExpansion(node: Node): boolean {
  return node.text === '$PWD' || node.text === '${PWD}';
}

const EXPANSIONS = new Set(['simple_expansion', 'expansion', 'arithmetic_expansion']);
const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);

/** A quoted part, kept even when empty: `''` is a (quoted) null argument bash passes on, unlike an empty expansion. */
function quotedText(text: string, out: Chunk[]): void {
  out.push({ text, q: true });
}

/** Unquoted word text: `\x` is a quoted x, `\<newline>` disappears. */
function unquotedWord(text: string, out: Chunk[]): void {
  if (!text.includes('\\')) {
    if (text.length > 0) out.push({ text, q: false });
    return;
  }
  let run = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && i + 1 < text.length) {
      const next = text[i + 1] as string;
      i++;
      if (run.length > 0) out.push({ text: run, q: false });
      run = '';
      if (next !== '\n') out.push({ text: next, q: true });
      continue;
    }
    run += c;
  }
  if (run.length > 0) out.push({ text: run, q: false });
}

/** Inside double quotes a backslash only escapes `$`, backtick, `"`, `\` and newline. */
function doubleQuotedContent(text: string, out: Chunk[]): void {
  if (!text.includes('\\')) {
    quotedText(text, out);
    return;
  }
  quotedText(
    text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c)),
    out,
  );
}

/**
 * Walks an expression (inside `${..}`, `$((..))`, `[[ ]]`, `(( ))`, subscripts...): only substitutions in it run
 * code; syntax errors make the command unreadable.
 */
export function walkExpression(node: Node, hooks: WordHooks): void {
  if (node.type === 'ERROR' || node.isMissing) {
    hooks.unreadable('syntax error');
    return;
  }
  if (SUBSTITUTIONS.has(node.type)) {
    hooks.code(node);
    return;
  }
  for (const child of node.children) walkExpression(child, hooks);
}

function evalInto(node: Node, hooks: WordHooks, out: RawWord, quoted = false): void {
  switch (node.type) {
    case 'word':
    case 'brace_expression':
    case 'extglob_pattern':
    case 'regex':
      // the grammar sometimes glues words around braces (`{ }a`): bash would split them
      if (/(^|[^\\])(\\\\)*[ \t\n]/.test(node.text))
        hooks.unreadable(`a word the grammar could not split: ${node.text}`);
      // `~+` is the working directory: the same place as `.` (contract "Assurance: Working directory")
      if (
        node.type === 'word' &&
        out.chunks.length === 0 &&
        !out.expands &&
        /^~\+(\/|$)/.test(node.text) &&
        hooks.pwdIsCwd?.() === true
      ) {
        unquotedWord('.' + node.text.slice(2), out.chunks);
        return;
      }
      unquotedWord(node.text, out.chunks);
      return;
    case 'variable_name':
    case 'special_variable_name':
    case 'file_descriptor':
      quotedText(node.text, out.chunks);
      return;
    case 'number':
      if (node.namedChildCount > 0) {
        out.expands = true;
        walkExpression(node, hooks);
      }
      unquotedWord(node.text, out.chunks);
      return;
    case 'raw_string':
      quotedText(node.text.slice(1, -1), out.chunks);
      return;
    case 'ansi_c_string':
      quotedText(decodeAnsiC(node.text.slice(2, -1)), out.chunks);
      return;
    case 'translated_string':
    case 'concatenation':
      for (const child of node.children) {
        if (node.type === 'translated_string' && child.type === '$') continue;
        evalInto(child, hooks, out, quoted || node.type === 'translated_string');
      }
      return;
    case 'array':
      // `(a b)`: elements are separate words; kept as one assignment text with single spaces
      node.children.forEach((child, i) => {
        if (child.type === '(' || child.type === ')') quotedText(child.text, out.chunks);
        else {
          if (i > 1) quotedText(' ', out.chunks);
          evalInto(child, hooks, out);
        }
      });
      return;
    case 'string':
      evalString(node, hooks, out);
      return;
    default:
      break;
  }
  if (EXPANSIONS.has(node.type)) {
    if (isPwdExpansion(node) && hooks.pwdIsCwd?.() === true) {
      quotedText('.', out.chunks);
      return;
    }
    out.expands = true;
    if (!quoted) (out.unquoted ??= []).push(node.text);
    if (node.type === 'arithmetic_expansion' && hooks.arithmetic) hooks.arithmetic(node);
    else if (node.type === 'expansion' && hooks.expansion) hooks.expansion(node);
    else walkExpression(node, hooks);
    quotedText(node.text, out.chunks);
    return;
  }
  if (SUBSTITUTIONS.has(node.type)) {
    out.expands = true;
    if (!quoted) (out.unquoted ??= []).push(node.text);
    hooks.code(node);
    quotedText(node.text, out.chunks);
    return;
  }
  if (node.type === '$' || node.type === '"' || !node.isNamed) {
    // a stray `$` (`"a$"`, `$"..."` split by the grammar) is literal text
    quotedText(node.text, out.chunks);
    return;
  }
  hooks.unreadable(node.type === 'ERROR' ? 'syntax error' : `unsupported word syntax: ${node.type}`);
  quotedText(node.text, out.chunks);
}

/**
 * A double-quoted string. The grammar does not give every character a node (newlines inside the quotes fall
 * between `string_content` nodes), so the text between children is taken from the source.
 */
function evalString(node: Node, hooks: WordHooks, out: RawWord): void {
  const text = node.text;
  const base = node.startIndex;
  const children = node.children;
  let pos = text.startsWith('"') ? 1 : 0;
  const end = text.length > pos && text.endsWith('"') ? text.length - 1 : text.length;
  children.forEach((child, i) => {
    if (child.type === '"' && (i === 0 || i === children.length - 1)) return;
    const start = child.startIndex - base;
    if (start > pos) doubleQuotedContent(text.slice(pos, start), out.chunks);
    pos = Math.max(pos, child.endIndex - base);
    if (child.type === 'string_content') {
      doubleQuotedContent(child.text, out.chunks);
      return;
    }
    if (EXPANSIONS.has(child.type) || SUBSTITUTIONS.has(child.type)) {
      evalInto(child, hooks, out, true);
      return;
    }
    if (!child.isNamed) {
      quotedText(child.text, out.chunks);
      return;
    }
    hooks.unreadable(`unsupported syntax in a string: ${child.type}`);
    quotedText(child.text, out.chunks);
  });
  if (end > pos) doubleQuotedContent(text.slice(pos, end), out.chunks);
}

/** Evaluates one or more adjacent nodes that form a single shell word. */
export function evaluateRaw(nodes: Node[], hooks: WordHooks): RawWord {
  const out: RawWord = { chunks: [], expands: false };
  for (const n of nodes) evalInto(n, hooks, out);
  return out;
}

export function rawText(raw: RawWord): string {
  if (raw.chunks.length === 1) return (raw.chunks[0] as Chunk).text;
  let s = '';
  for (const ch of raw.chunks) s += ch.text;
  return s;
}

/** The word character by character (for brace expansion). */
export function wordChars(raw: RawWord): WordChar[] {
  const out: WordChar[] = [];
  for (const ch of raw.chunks) {
    // An empty quoted part (`''`) stays as a zero-length quoted char: it keeps a brace alternative a null argument.
    if (ch.text === '' && ch.q) out.push({ c: '', q: true });
    for (const c of ch.text) out.push({ c, q: ch.q });
  }
  return out;
}

/** Some unquoted character could start a brace expansion. */
export function mayBraceExpand(raw: RawWord): boolean {
  return raw.chunks.some((ch) => !ch.q && ch.text.includes('{'));
}

/** An unquoted `*`, `?` or `[..]`: the shell globs the word. */
export function hasGlob(raw: RawWord): boolean {
  let openBracket = false;
  for (const ch of raw.chunks) {
    if (ch.q) continue;
    if (/[*?]/.test(ch.text)) return true;
    const open = ch.text.indexOf('[');
    if (openBracket && ch.text.includes(']')) return true;
    if (open >= 0) {
      if (ch.text.indexOf(']', open + 2) >= 0) return true;
      openBracket = true;
    }
  }
  return false;
}

/** `~user` or `~+`/`~-` (not a plain `~` or `~/`): expands to a directory the text does not show. */
function hasUserTilde(raw: RawWord): boolean {
  const first = raw.chunks[0];
  if (first === undefined || first.q || !first.text.startsWith('~')) return false;
  const next = first.text.length > 1 ? first.text[1] : raw.chunks[1]?.text[0];
  return next !== undefined && next !== '/';
}

/** True when the program would not receive the word's text as written. */
export function isDynamic(raw: RawWord): boolean {
  return raw.expands || hasGlob(raw) || hasUserTilde(raw);
}

/** Groups sibling nodes into shell words: nodes with nothing (or only `\<newline>`) between them are one word. */
export function groupAdjacent(nodes: Node[], source: string): Node[][] {
  const groups: Node[][] = [];
  let prev: Node | null = null;
  for (const n of nodes) {
    const last = groups[groups.length - 1];
    if (prev !== null && last !== undefined && /^(?:\\\n)*$/.test(source.slice(prev.endIndex, n.startIndex))) {
      last.push(n);
    } else {
      groups.push([n]);
    }
    prev = n;
  }
  return groups;
}
