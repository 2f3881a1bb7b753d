import { respellOutsideQuotes } from './outside-quotes';

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
  let changed = false;
  const out = respellOutsideQuotes(text, (source, i, written) => {
    const c = source[i] as string;
    const prev = written.length === 0 ? '' : (written[written.length - 1] as string);
    const atWordStart = prev === '' || /[\s;&|()]/.test(prev);
    if (c === '{' && atWordStart && /^\{[^\s{}]*,[^\s]*\}/.test(source.slice(i))) {
      changed = true;
      return { emit: "''{", last: i };
    }
    const fdRw = /^(\d*)<>/.exec(source.slice(i));
    if (fdRw !== null && (atWordStart || fdRw[1] === '')) {
      const fd = fdRw[1] as string;
      changed = true;
      return { emit: fd === '' || fd === '0' ? '<' : `${fd}>>`, last: i + fdRw[0].length - 1 };
    }
    return null;
  });
  return changed ? out : null;
}

/** The node shape `lineJoinRepair` reads (a SyntaxNode copy of the tree). */
interface JoinNode {
  readonly type: string;
  readonly children: readonly JoinNode[];
  readonly startIndex: number;
  readonly endIndex: number;
}

/**
 * tree-sitter-bash reads a pipeline of three or more commands followed by a line holding a redirected command
 * (`a | b | c` NEWLINE `rm -rf src < f`) as one pipeline whose last command is `c rm -rf src`: bash runs `rm` as a
 * command of its own. A newline between two words of one simple command is never bash's reading (a line
 * continuation is `\` NEWLINE), so the source is respelled with `;` before each such newline, which bash reads
 * the same and the grammar reads right. Returns null when no command spans a line.
 */
export function lineJoinRepair(root: JoinNode, text: string): string | null {
  const cuts: number[] = [];
  const visit = (n: JoinNode): void => {
    if (n.type === 'command') {
      for (let i = 1; i < n.children.length; i++) {
        const gapStart = (n.children[i - 1] as JoinNode).endIndex;
        const gap = text.slice(gapStart, (n.children[i] as JoinNode).startIndex);
        for (let k = 0; k < gap.length; k++) if (gap[k] === '\n' && gap[k - 1] !== '\\') cuts.push(gapStart + k);
      }
    }
    for (const c of n.children) visit(c);
  };
  visit(root);
  if (cuts.length === 0) return null;
  let out = '';
  let from = 0;
  for (const at of [...new Set(cuts)].sort((a, b) => a - b)) {
    out += `${text.slice(from, at)};`;
    from = at;
  }
  return out + text.slice(from);
}
