/**
 * `time`, `coproc` and `!` are bash reserved words that may come before a compound command (`coproc { sudo reboot;
 * }`, `time { …; }`, `! if …; fi`, `coproc NAME while …; done`). The grammar reads them as an ordinary command
 * name, so the compound's words become arguments and its keywords commands of their own: the commands in the body
 * would never be judged. Contract "Assurance": compound bodies are judged wherever they appear.
 *
 * The reserved word (with `time -p`/`--`, or coproc's NAME) is respelled as blanks, which keeps every offset, and
 * the source parsed again: the compound then reads as it does without them. `time` and `!` change only how the
 * result is reported; a coproc body runs in the background in a subshell, so where each one starts is returned
 * for the walker to scope it so (its `cd`s and variables do not come back, its input is a pipe).
 */

import type { Tree } from 'web-tree-sitter';
import { parseShell } from './parser';
import { copyTree, type SyntaxNode } from './syntax-node';

/** A node as much as this module reads of it. */
interface ReservedNode {
  readonly type: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly children: readonly ReservedNode[];
  readonly field: string | null;
}

const END = String.raw`(?=[\s;&|()<>]|$)`;
const KEYWORDS = String.raw`(?:if|while|until|for|case|select|time|coproc)${END}`;
/** What may start the compound command after the reserved word. */
const COMPOUND = String.raw`(?:\{(?=\s)|\(|\[\[${END}|!${END}|${KEYWORDS})`;
const AFTER_TIME = new RegExp(String.raw`^(?:[ \t]+(?:-p|--)${END})*[ \t]+(?=${COMPOUND})`);
/** `coproc [NAME] COMPOUND`: NAME is any name but a reserved word (`coproc for ((…))` has none). */
const AFTER_COPROC = new RegExp(String.raw`^[ \t]+(?:(?!${KEYWORDS})[A-Za-z_][A-Za-z0-9_]*[ \t]+)?(?=${COMPOUND})`);
/** A compound keyword (or a second `!`) read as a command name after `!`. */
const COMPOUND_NAME = /^(?:\{|if|while|until|for|case|select|!)$/;

interface Blank {
  from: number;
  to: number;
  /** For coproc: the body starts at the first non-blank character from here. */
  coproc: boolean;
}

function findBlanks(root: ReservedNode, text: string): Blank[] {
  const out: Blank[] = [];
  const visit = (n: ReservedNode): void => {
    if (n.type === 'command') {
      const name = n.children[0];
      const word = name?.field === 'name' ? text.slice(name.startIndex, name.endIndex) : '';
      const after = name === undefined ? null : word === 'time' ? AFTER_TIME : word === 'coproc' ? AFTER_COPROC : null;
      const m = after === null || name === undefined ? null : after.exec(text.slice(name.endIndex));
      if (m !== null && name !== undefined) {
        out.push({ from: name.startIndex, to: name.endIndex + m[0].length, coproc: word === 'coproc' });
        return; // the rest is read again once respelled
      }
    }
    if (n.type === 'negated_command') {
      const bang = n.children[0];
      const inner = n.children[1];
      const innerName = inner?.type === 'command' ? inner.children[0] : undefined;
      if (
        bang?.type === '!' &&
        innerName?.field === 'name' &&
        COMPOUND_NAME.test(text.slice(innerName.startIndex, innerName.endIndex))
      ) {
        out.push({ from: bang.startIndex, to: bang.endIndex, coproc: false });
        return;
      }
    }
    for (const c of n.children) visit(c);
  };
  visit(root);
  return out;
}

interface ReservedRespelling {
  text: string;
  /** Offsets (in `text`) where a coproc's compound body starts. */
  coprocBodies: number[];
}

/**
 * One round of respelling: null when the tree holds no reserved word before a compound command. `coprocMarks`
 * carries the coproc bodies found in earlier rounds (offsets are kept by the respelling).
 */
function respellReservedWords(
  root: ReservedNode,
  text: string,
  coprocMarks: readonly number[] = [],
): ReservedRespelling | null {
  const blanks = findBlanks(root, text);
  if (blanks.length === 0) return null;
  let out = text;
  const marks = [...coprocMarks];
  for (const b of blanks) {
    out = out.slice(0, b.from) + ' '.repeat(b.to - b.from) + out.slice(b.to);
    if (b.coproc) marks.push(b.to);
  }
  const firstNonBlank = (i: number): number => {
    let k = i;
    while (k < out.length && /\s/.test(out[k] as string)) k++;
    return k;
  };
  return { text: out, coprocBodies: marks.map(firstNonBlank) };
}

/** A parsed source: the tree (the caller deletes it), its text, and its plain copy. */
export interface ParsedSource {
  tree: Tree;
  source: string;
  root: SyntaxNode;
}

/** Nodes that only group what follows them: a coproc body is the first other node starting where it does. */
const WRAPPING = new Set(['program', 'list', 'pipeline', 'redirected_statement']);

function nodesAt(root: SyntaxNode, offsets: readonly number[]): Set<SyntaxNode> {
  const wanted = new Set(offsets);
  const out = new Set<SyntaxNode>();
  const visit = (n: SyntaxNode): void => {
    if (wanted.has(n.startIndex) && !WRAPPING.has(n.type)) {
      out.add(n);
      wanted.delete(n.startIndex);
    }
    for (const c of n.children) visit(c);
  };
  visit(root);
  return out;
}

/**
 * `parsed` with every reserved word before a compound command respelled (the old tree deleted when replaced), and
 * the coproc bodies found (with `bodies`, those an earlier reading of the same offsets found). A respelling the
 * grammar cannot read leaves `parsed` as it was and is reported.
 */
export function readReservedWords(
  parsed: ParsedSource,
  unreadable: (reason: string) => void,
  bodies: Set<SyntaxNode> = new Set(),
): ParsedSource & { coprocBodies: Set<SyntaxNode> } {
  let current = parsed;
  let marks = [...bodies].map((n) => n.startIndex);
  let respelled = false;
  for (let round = 0; round < 8; round++) {
    const r = respellReservedWords(current.root, current.source, marks);
    if (r === null) break;
    const tree = parseShell(r.text);
    if (tree.rootNode.hasError && !current.tree.rootNode.hasError) {
      tree.delete();
      unreadable('a reserved word (time, coproc, !) before a compound command the parser cannot read');
      break;
    }
    current.tree.delete();
    current = { tree, source: r.text, root: copyTree(tree, r.text) };
    marks = r.coprocBodies;
    respelled = true;
  }
  return { ...current, coprocBodies: respelled ? nodesAt(current.root, marks) : bodies };
}
