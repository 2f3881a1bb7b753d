/**
 * Splits markdown into top-level blocks so a streaming message re-renders only its last (growing) block.
 *
 * A block ends at a blank line, except:
 * - inside a fenced code block (``` or ~~~, three or more; closed by the same character, at least as many, and
 *   nothing but spaces after it). An unterminated fence runs to the end of the text (it is still streaming);
 * - before a line indented four columns (a list item's continuation, an indented code block): it stays with the block
 *   above; so does a line indented one to three spaces when a list item in the block may continue with it;
 * - before a list item when the block holds a list item or ends indented: a blank line between items makes one loose
 *   list, not two lists.
 * A text with a link reference definition (`[id]: url`) or a footnote (`[^1]`) anywhere is one block: what such a
 * reference renders as depends on the whole text. So is a text with an HTML block that may span blank lines (a
 * comment, `<pre>`, `<script>`, …): its inside is dropped whole, never rendered as markdown.
 *
 * Not splitting is always correct (only slower), so every doubt keeps lines together. Rendering the blocks one by
 * one gives what rendering the whole text gives (tested against the real renderer).
 */
export function splitMarkdownBlocks(text: string): string[] {
  return scanBlocks(text, 0).blocks;
}

/** A split of `text`, with where each block starts in it (so a longer text can be split from its last block). */
export interface MarkdownBlocks {
  text: string;
  blocks: string[];
  starts: number[];
}

/**
 * The split of `text`, reusing `previous` when `text` extends it (a streaming message): only the last block and
 * what follows are scanned again, and the finished blocks are the same strings as before. Equal to
 * `splitMarkdownBlocks(text)`: a block starts outside any fence with a line that is not indented, so nothing after
 * it can change the blocks before it.
 */
export function extendMarkdownBlocks(previous: MarkdownBlocks | null, text: string): MarkdownBlocks {
  const last = previous ? previous.blocks.length - 1 : -1;
  const from = previous?.starts[last];
  if (!previous || from === undefined || !text.startsWith(previous.text)) return { text, ...scanBlocks(text, 0) };
  // The previous text was split, so it held no reference: only its last line and what came after can (a streaming
  // message is not searched whole at every token).
  const lastLine = previous.text.lastIndexOf('\n') + 1;
  if (needsWholeText(text.slice(lastLine))) return { text, ...scanBlocks(text, 0) };
  const tail = scanBlocks(text, from);
  return {
    text,
    blocks: [...previous.blocks.slice(0, last), ...tail.blocks],
    starts: [...previous.starts.slice(0, last), ...tail.starts],
  };
}

/** A link reference definition or a footnote, anywhere (in a code block too: a doubt only costs speed). */
const WHOLE_TEXT =
  /^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:|\[\^|^ {0,3}<(?:!--|\?|![A-Za-z]|!\[CDATA\[|(?:script|pre|style|textarea)(?:[\s>]|$))/im;

/** Four columns of indentation (a tab counts as reaching them): indented code or a list item's continuation. */
const INDENTED = /^(?: {0,3}\t| {4})/;

function needsWholeText(text: string): boolean {
  return WHOLE_TEXT.test(text);
}

/** A line that starts a list item (or a thematic break like `- - -`, which is kept together too). */
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;

function scanBlocks(text: string, from: number): { blocks: string[]; starts: number[] } {
  if (from === 0 && needsWholeText(text)) return { blocks: text.trim() === '' ? [] : [text], starts: [0] };
  const blocks: string[] = [];
  const starts: number[] = [];
  let current: string[] = [];
  let currentStart = from;
  let fence: { char: string; length: number } | null = null;
  let blanks = 0;

  const flush = (): void => {
    if (current.length > 0) {
      blocks.push(current.join('\n'));
      starts.push(currentStart);
    }
    current = [];
  };

  for (let at = from; at <= text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(at, end);
    const lineStart = at;
    at = end + 1;
    if (fence) {
      current.push(line);
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (line.trim() === '') {
      if (current.length > 0) blanks++;
      continue;
    }
    if (blanks > 0) {
      const continues = INDENTED.test(line) || mayContinueList(current, line);
      if (continues) current.push(...Array<string>(blanks).fill(''));
      else flush();
      blanks = 0;
    }
    if (current.length === 0) currentStart = lineStart;
    current.push(line);
    fence = opensFence(line);
  }
  flush();
  return { blocks, starts };
}

/**
 * Whether a line after blank lines may belong to what the block holds (`line` is indented less than four columns):
 * - a list item, when the block has a list item anywhere (a list can start after a heading or interrupt a paragraph,
 *   in the block's middle);
 * - a line indented one to three spaces, when a list item in the block has its text starting at or before that
 *   column (then it may be that item's next paragraph);
 * - either, when the block ends indented four columns (after an indented code block the renderer does not start a
 *   list there: `2) d` stays a paragraph), or ends indented at all and holds a list item. A paragraph whose line
 *   starts with a space or three is just a paragraph: the next one starts a block.
 */
function mayContinueList(current: string[], line: string): boolean {
  const item = LIST_ITEM.test(line);
  const indent = /^ {1,3}(?=\S)/.exec(line)?.[0].length;
  if (!item && indent === undefined) return false;
  const hasItem = current.some((l) => LIST_ITEM.test(l));
  const last = current[current.length - 1] ?? '';
  if (INDENTED.test(last) || (hasItem && /^[ \t]/.test(last))) return true;
  if (item) return hasItem;
  return current.some((l) => LIST_ITEM.test(l) && itemTextColumn(l) <= (indent ?? 0));
}

/** The column where a list item's text starts (what its later paragraphs must be indented by); 0 when unsure. */
function itemTextColumn(item: string): number {
  const match = /^( {0,3})([-+*]|\d{1,9}[.)])( *)(.*)$/.exec(item);
  if (!match) return 0; // a tab after the marker: unsure, so anything may continue it
  const [, indent = '', marker = '', spaces = '', rest = ''] = match;
  const gap = rest === '' || spaces.length >= 5 ? 1 : spaces.length;
  return indent.length + marker.length + gap;
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;

function opensFence(line: string): { char: string; length: number } | null {
  const match = FENCE_OPEN.exec(line);
  if (!match) return null;
  const marks = match[1] ?? '';
  const info = match[2] ?? '';
  // A backtick fence's info string cannot contain a backtick (then the line is inline code, not a fence).
  if (marks.startsWith('`') && info.includes('`')) return null;
  return { char: marks.charAt(0), length: marks.length };
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const match = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(line);
  const marks = match?.[1];
  return marks !== undefined && marks.charAt(0) === fence.char && marks.length >= fence.length;
}
