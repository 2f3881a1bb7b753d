/** A top-level fenced code block of the model's text, taken apart for the streaming code view. */
export interface FencedCode {
  /** The info string's first word ('' when none). */
  language: string;
  lines: string[];
  /** False while the closing fence has not arrived (still streaming). */
  closed: boolean;
}

const OPEN = /^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/;

/**
 * The block as a fenced code block when it is exactly one (an opening fence, code, and a closing fence as its last
 * line or none yet); null otherwise (the markdown renderer takes it).
 */
export function parseFencedBlock(block: string): FencedCode | null {
  const all = block.split('\n');
  const open = OPEN.exec(all[0] ?? '');
  if (!open) return null;
  const indent = open[1]?.length ?? 0;
  const marks = open[2] ?? '';
  const info = open[3] ?? '';
  const body = all.slice(1);
  const closeAt = body.findIndex((line) => closes(line, marks));
  if (closeAt !== -1 && closeAt !== body.length - 1) return null; // text follows the fence in the same block
  const code = closeAt === -1 ? body : body.slice(0, closeAt);
  return { language: info, lines: code.map((line) => stripIndent(line, indent)), closed: closeAt !== -1 };
}

function closes(line: string, marks: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  const close = m?.[1];
  return close !== undefined && close.charAt(0) === marks.charAt(0) && close.length >= marks.length;
}

function stripIndent(line: string, indent: number): string {
  let n = 0;
  while (n < indent && line.charAt(n) === ' ') n++;
  return line.slice(n);
}

/** Segments end at a blank line once they have MIN_LINES lines, and at MAX_LINES lines at the latest. */
const MIN_LINES = 40;
const MAX_LINES = 150;

/**
 * Cuts code into segments highlighted on their own, so a growing block re-highlights only its last segment. A
 * segment's end depends only on the lines before it: finished segments never change as more code arrives. Code
 * shorter than MIN_LINES is one segment (highlighted as a whole).
 */
export function codeSegments(lines: string[]): string[] {
  const segments: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    current.push(line);
    if (current.length >= MAX_LINES || (current.length >= MIN_LINES && line.trim() === '')) {
      segments.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length > 0 || segments.length === 0) segments.push(current.join('\n'));
  return segments;
}
