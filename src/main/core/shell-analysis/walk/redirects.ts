import type { SyntaxNode as Node } from '../parse/syntax-node';
import type { AnalysisState, Stdin } from './state';
import { evaluateRaw, groupAdjacent, isDynamic, rawText, walkExpression, type WordHooks } from '../words/words';

/**
 * Redirections: `>`, `>>`, `>|`, `&>`, `&>>`, `N>` write a file; `<` reads one; `<>` does both; `>&N`/`<&N`
 * duplicate descriptors (no file) unless the target is not a number (`>& file` writes `file`).
 */
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>']);
const DUP_OPS = new Set(['>&', '<&']);
const CLOSE_OPS = new Set(['>&-', '<&-']);
const ALL_OPS = new Set([...WRITE_OPS, ...DUP_OPS, ...CLOSE_OPS, '<', '<>']);

function operator(r: Node): string | null {
  for (const c of r.children) if (!c.isNamed && ALL_OPS.has(c.type)) return c.type;
  return null;
}

function descriptor(r: Node): string {
  return r.childForFieldName('descriptor')?.text ?? '';
}

/** The redirect sends stdout somewhere other than the pipe. */
export function writesStdout(r: Node): boolean {
  const op = operator(r);
  const fd = descriptor(r);
  if (op === '&>' || op === '&>>') return true;
  return op !== null && op.startsWith('>') && (fd === '' || fd === '1');
}

export function fileRedirect(r: Node, source: string, state: AnalysisState, hooks: WordHooks): void {
  const op = operator(r);
  const targets = r.childrenForFieldName('destination');
  if (op === null) {
    hooks.unreadable(`unsupported redirection: ${r.text}`);
    return;
  }
  if (CLOSE_OPS.has(op)) return;
  if (targets.length === 0) {
    hooks.unreadable(`redirection without a target: ${r.text}`);
    return;
  }
  const groups = groupAdjacent(targets, source);
  if (groups.length !== 1) hooks.unreadable(`ambiguous redirection: ${r.text}`);
  const raw = evaluateRaw(targets, hooks);
  const path = rawText(raw);
  const dynamic = isDynamic(raw);
  const target = { path, via: descriptor(r) + op, dynamic, ...(state.cwd === '' ? {} : { cwd: state.cwd }) };
  if (DUP_OPS.has(op)) {
    if (/^\d+-?$/.test(path) || path === '-') return;
    if (dynamic) {
      hooks.unreadable(`redirection to a computed descriptor or file: ${r.text}`);
      return;
    }
    if (op === '>&') state.writes.push(target);
    else state.reads.push(target);
    return;
  }
  if (op === '<' || op === '<>') state.reads.push(target);
  if (op !== '<') state.writes.push(target);
}

function stripLeadingTabs(text: string): string {
  return text.replace(/^\t+/gm, '');
}

/** Unquoted heredoc text: backslash escapes `$`, backtick, `\` and newline only. */
function unescapeHeredoc(text: string): string {
  return text.replace(/\\([$`\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/**
 * tree-sitter-bash misreads a heredoc body that starts with a backslash as words after the delimiter
 * (`bash <<'EOF'\n\\rm -rf /\nEOF`). We recognise that shape and take the body from the source text.
 */
export function misreadHeredocBody(r: Node, source: string): string | null {
  const start = r.children.find((c) => c.type === 'heredoc_start');
  const end = r.children.find((c) => c.type === 'heredoc_end');
  const firstArg = r.childForFieldName('argument');
  if (start === undefined || end === undefined || firstArg === null) return null;
  if (!source.slice(start.endIndex, firstArg.startIndex + 1).includes('\n')) return null;
  const lineEnd = source.indexOf('\n', start.endIndex);
  return lineEnd < 0 || lineEnd >= end.startIndex ? null : source.slice(lineEnd + 1, end.startIndex);
}

/**
 * The commands in backquotes in an unquoted here-document body (`` `cmd` ``): they run, like `$(cmd)`, but the
 * grammar leaves them as text. Inside backquotes `\$`, `` \` `` and `\\` stand for the character. `$(…)` parts
 * are the grammar's own (skipped); null when a backquote is not closed.
 */
function backquotedCommands(body: Node): string[] | null {
  const text = body.text;
  const parsed = body.namedChildren
    .filter((c) => c.type === 'command_substitution')
    .map((c) => [c.startIndex - body.startIndex, c.endIndex - body.startIndex] as const);
  const out: string[] = [];
  let inside = false;
  let content = '';
  for (let i = 0; i < text.length; i++) {
    const skip = parsed.find(([from, to]) => i >= from && i < to);
    if (skip !== undefined) {
      if (inside) content += text.slice(i, skip[1]);
      i = skip[1] - 1;
      continue;
    }
    const c = text[i] as string;
    if (c === '\\' && i + 1 < text.length) {
      const next = text[i + 1] as string;
      if (inside) content += '$`\\'.includes(next) ? next : c + next;
      i++;
      continue;
    }
    if (c === '`') {
      if (inside) out.push(content);
      inside = !inside;
      content = '';
      continue;
    }
    if (inside) content += c;
  }
  return inside ? null : out;
}

/**
 * The text a heredoc feeds to its command's stdin, when known. Substitutions in an unquoted heredoc run: they
 * are handed to `hooks.code`, and such a body is not literal.
 */
export function heredocLiteral(r: Node, source: string, hooks: WordHooks): Stdin {
  const start = r.children.find((c) => c.type === 'heredoc_start');
  const body = r.children.find((c) => c.type === 'heredoc_body');
  const stripTabs = r.children.some((c) => c.type === '<<-');
  if (start === undefined) {
    hooks.unreadable('heredoc without a delimiter');
    return { kind: 'unknown' };
  }
  const quoted = /['"\\]/.test(start.text);
  const misread = misreadHeredocBody(r, source);
  if (misread !== null) {
    if (!quoted && /[$`]/.test(misread)) {
      hooks.unreadable('heredoc body the grammar cannot read');
      return { kind: 'unknown' };
    }
    const plain = quoted ? misread : unescapeHeredoc(misread);
    return { kind: 'literal', text: stripTabs ? stripLeadingTabs(plain) : plain, written: 'heredoc' };
  }
  const text = body?.text ?? '';
  if (quoted) return { kind: 'literal', text: stripTabs ? stripLeadingTabs(text) : text, written: 'heredoc' };
  let expands = false;
  const backquoted = body === undefined ? [] : backquotedCommands(body);
  if (backquoted === null) {
    hooks.unreadable('a here-document with an unterminated backquote');
    return { kind: 'unknown' };
  }
  for (const code of backquoted) {
    expands = true;
    if (hooks.codeText === undefined) hooks.unreadable('a backquoted command in a here-document');
    else hooks.codeText(code);
  }
  for (const child of body?.namedChildren ?? []) {
    if (child.type === 'heredoc_content') continue;
    expands = true;
    walkExpression(child, hooks);
  }
  if (expands) return { kind: 'unknown' };
  const plain = unescapeHeredoc(text);
  return { kind: 'literal', text: stripTabs ? stripLeadingTabs(plain) : plain, written: 'heredoc' };
}
