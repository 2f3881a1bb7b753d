/**
 * Splits markdown into top-level blocks so a streaming message re-renders only its last (growing) block.
 *
 * A block ends at a blank line, except:
 * - inside a fenced code block (``` or ~~~, three or more; closed by the same character, at least as many, and
 *   nothing but spaces after it). An unterminated fence runs to the end of the text (it is still streaming);
 * - before an indented line (a list item's continuation, an indented code block): it stays with the block above.
 *
 * Not splitting is always correct (only slower), so every doubt keeps lines together. Joining the blocks with
 * "\n\n" gives back an equivalent document.
 */
export function splitMarkdownBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: { char: string; length: number } | null = null;
  let blanks = 0;

  const flush = (): void => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };

  for (const line of lines) {
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
      if (/^[ \t]/.test(line)) current.push(...Array<string>(blanks).fill(''));
      else flush();
      blanks = 0;
    }
    current.push(line);
    fence = opensFence(line);
  }
  flush();
  return blocks;
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
