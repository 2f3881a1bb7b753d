import { braceExpand } from './brace';
import type { SyntaxNode as Node } from '../parse/syntax-node';
import {
  evaluateRaw,
  hasGlob,
  isDynamic,
  mayBraceExpand,
  rawText,
  wordChars,
  type RawWord,
  type WordHooks,
} from './words';

/**
 * The words of a simple command as the shell passes them: adjacent nodes joined into one word, quotes and
 * escapes removed, braces expanded. `dynamic[i]` says the shell expands word i at run time.
 *
 * tree-sitter-bash treats an escaped blank (`\ `, `\<tab>`) and a line continuation as whitespace between
 * nodes; for bash they are part of the word (`a\<tab>b` is one word `a<tab>b`, `\ x` is ` x`). So words are
 * rebuilt from the source between the nodes, not from the node boundaries alone.
 */
export interface CommandWords {
  words: string[];
  dynamic: boolean[];
  /** The command name itself is computed (`$cmd`, `$(..)`, a glob): what runs cannot be known. */
  computedName: string | null;
  /** An escaped blank the grammar left outside every word and that could not be placed. */
  misplacedBlank: boolean;
  /** The arguments (not the command name) that bash globs or expands, for the reads pathname expansion does. */
  expanding: { raw: RawWord; word: string }[];
}

/** Text between two nodes that bash reads as part of the same word: line continuations and escaped blanks. */
const GLUE = /^(?:\\\n|\\[ \t])*$/;
const ESCAPED_BLANK = /\\[ \t]/;

/** The escaped blanks in glue text, as bash keeps them (continuations disappear). */
function glueText(glue: string): string {
  return glue.replace(/\\\n/g, '').replace(/\\([ \t])/g, '$1');
}

/** Length of the glue (escaped blanks, continuations) that starts at `from`. */
function glueAfter(source: string, from: number, limit: number): number {
  let i = from;
  while (
    i + 1 < limit &&
    source[i] === '\\' &&
    (source[i + 1] === ' ' || source[i + 1] === '\t' || source[i + 1] === '\n')
  )
    i += 2;
  return i - from;
}

/** Length of the glue that ends at `to`, where the backslash is not itself escaped. */
function glueBefore(source: string, to: number, limit: number): number {
  let i = to;
  while (
    i - 2 >= limit &&
    source[i - 2] === '\\' &&
    (source[i - 1] === ' ' || source[i - 1] === '\t' || source[i - 1] === '\n')
  ) {
    let slashes = 0;
    for (let j = i - 2; j >= limit && source[j] === '\\'; j--) slashes++;
    if (slashes % 2 === 0) break;
    i -= 2;
  }
  return to - i;
}

function groupWords(nodes: Node[], source: string): Node[][] {
  const groups: Node[][] = [];
  let prev: Node | null = null;
  for (const n of nodes) {
    const last = groups[groups.length - 1];
    if (prev !== null && last !== undefined && GLUE.test(source.slice(prev.endIndex, n.startIndex))) last.push(n);
    else groups.push([n]);
    prev = n;
  }
  return groups;
}

function evaluateGroup(group: Node[], source: string, hooks: WordHooks, before: string, after: string): RawWord {
  const raw: RawWord = { chunks: [], expands: false };
  const push = (text: string): void => {
    if (text.length > 0) raw.chunks.push({ text, q: true });
  };
  push(glueText(before));
  group.forEach((node, i) => {
    if (i > 0) push(glueText(source.slice((group[i - 1] as Node).endIndex, node.startIndex)));
    const part = evaluateRaw(node.type === 'command_name' ? node.namedChildren : [node], hooks);
    raw.chunks.push(...part.chunks);
    raw.expands ||= part.expands;
    if (part.unquoted !== undefined) (raw.unquoted ??= []).push(...part.unquoted);
  });
  push(glueText(after));
  return raw;
}

export function commandWords(wordNodes: Node[], source: string, hooks: WordHooks): CommandWords {
  const out: CommandWords = { words: [], dynamic: [], computedName: null, misplacedBlank: false, expanding: [] };
  const groups = groupWords(wordNodes, source);
  let previousEnd = wordNodes[0]?.startIndex ?? 0;
  groups.forEach((group, gi) => {
    const first = group[0] as Node;
    const last = group[group.length - 1] as Node;
    const nextStart = groups[gi + 1]?.[0]?.startIndex ?? source.length;
    const beforeLength = gi === 0 ? 0 : glueBefore(source, first.startIndex, previousEnd);
    const afterLength = glueAfter(source, last.endIndex, nextStart);
    if (gi > 0 && ESCAPED_BLANK.test(source.slice(previousEnd, first.startIndex - beforeLength)))
      out.misplacedBlank = true;
    const raw = evaluateGroup(
      group,
      source,
      hooks,
      source.slice(first.startIndex - beforeLength, first.startIndex),
      source.slice(last.endIndex, last.endIndex + afterLength),
    );
    previousEnd = last.endIndex + afterLength;
    const dyn = isDynamic(raw);
    if (gi === 0 && dyn) out.computedName = group.map((n) => n.text).join('');
    if (gi > 0 && dyn) out.expanding.push({ raw, word: rawText(raw) });
    if (raw.expands || !mayBraceExpand(raw)) {
      out.words.push(rawText(raw));
      out.dynamic.push(dyn);
      return;
    }
    const expanded = braceExpand(wordChars(raw));
    if (expanded === null) {
      out.words.push(rawText(raw));
      out.dynamic.push(true);
      return;
    }
    if (dyn) out.expanding.pop();
    for (const w of expanded) {
      // Bash drops a word that expands to nothing and had no quotes (`{,}` gives no words, `''{,}` two empty ones).
      if (w.every((c) => c.c === '' && !c.q)) continue;
      const one: RawWord = { chunks: w.map((c) => ({ text: c.c, q: c.q })), expands: false };
      out.words.push(w.map((c) => c.c).join(''));
      out.dynamic.push(dyn || hasGlob(one));
      if (gi > 0 && hasGlob(one)) out.expanding.push({ raw: one, word: rawText(one) });
    }
  });
  return out;
}
