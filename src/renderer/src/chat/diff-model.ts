import { parsePatch } from 'diff';
import { summariseMarks } from '../../../shared/visible-text';
import { highlightLines } from './highlight';
import type { Token } from './highlight';

type DiffLineKind = 'context' | 'add' | 'del';

/** One line of a hunk, without its +/-/space prefix; numbers are 1-based, null on the side it is absent from. */
export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  oldNo: number | null;
  newNo: number | null;
}

export interface DiffHunk {
  header: string;
  lines: DiffLine[];
}

/** A row of the side-by-side view: the old line on the left, the new one on the right (either may be missing). */
export interface SplitRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

/** Splits a unified diff into its file header lines and raw hunks (the prefix kept on every line). */
function parseUnifiedDiff(diff: string): { files: string[]; hunks: Array<{ header: string; lines: string[] }> } {
  const files: string[] = [];
  const hunks: Array<{ header: string; lines: string[] }> = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) hunks.push({ header: line, lines: [] });
    else if (hunks.length === 0) {
      if (line.startsWith('---') || line.startsWith('+++')) files.push(line);
    } else if (line !== '' || hunks[hunks.length - 1]?.lines.length === 0) hunks[hunks.length - 1]?.lines.push(line);
  }
  return { files, hunks };
}

const HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The hunks of a unified diff with line numbers, parsed by `diff`'s parsePatch (by hand when it refuses the text). */
export function parseDiffHunks(diff: string): DiffHunk[] {
  let raw: Array<{ header: string; oldStart: number; newStart: number; lines: string[] }>;
  try {
    raw = parsePatch(diff).flatMap((file) =>
      file.hunks.map((h) => ({
        header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
        oldStart: h.oldStart,
        newStart: h.newStart,
        lines: h.lines,
      })),
    );
  } catch {
    raw = parseUnifiedDiff(diff).hunks.map((h) => {
      const m = HEADER.exec(h.header);
      return { header: h.header, oldStart: Number(m?.[1] ?? 1), newStart: Number(m?.[2] ?? 1), lines: h.lines };
    });
  }
  return raw.map((h) => {
    let oldNo = h.oldStart;
    let newNo = h.newStart;
    const lines: DiffLine[] = [];
    for (const line of h.lines) {
      const mark = line.charAt(0);
      if (mark === '\\') continue; // "\ No newline at end of file"
      const text = line.slice(1);
      if (mark === '+') lines.push({ kind: 'add', text, oldNo: null, newNo: newNo++ });
      else if (mark === '-') lines.push({ kind: 'del', text, oldNo: oldNo++, newNo: null });
      else lines.push({ kind: 'context', text, oldNo: oldNo++, newNo: newNo++ });
    }
    return { header: h.header, lines };
  });
}

/** Side-by-side rows: context on both sides; a run of removals is paired line by line with the additions after it. */
export function splitRows(lines: DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line) break;
    if (line.kind === 'context') {
      rows.push({ left: line, right: line });
      i++;
      continue;
    }
    const dels: DiffLine[] = [];
    const adds: DiffLine[] = [];
    while (lines[i]?.kind === 'del') dels.push(lines[i++] as DiffLine);
    while (lines[i]?.kind === 'add') adds.push(lines[i++] as DiffLine);
    for (let j = 0; j < Math.max(dels.length, adds.length); j++)
      rows.push({ left: dels[j] ?? null, right: adds[j] ?? null });
  }
  return rows;
}

/**
 * Highlights a hunk side by side: the old text (context + removed) and the new text (context + added) each as a
 * whole, so a line's tokens come from its own version of the file. Returns the tokens of `lines[i]`.
 */
export function highlightHunk(lines: DiffLine[], language: string | null): Token[][] {
  const oldSide = lines.filter((l) => l.kind !== 'add');
  const newSide = lines.filter((l) => l.kind !== 'del');
  const oldTokens = highlightLines(oldSide.map((l) => l.text).join('\n'), language);
  const newTokens = highlightLines(newSide.map((l) => l.text).join('\n'), language);
  let o = 0;
  let n = 0;
  return lines.map((l) => {
    if (l.kind === 'add') return newTokens[n++] ?? [];
    if (l.kind === 'del') return oldTokens[o++] ?? [];
    n++;
    return oldTokens[o++] ?? [];
  });
}

/** A line that holds hidden or direction-changing characters (Trojan Source): flagged wherever it shows. */
export function lineIsFlagged(line: DiffLine): boolean {
  return summariseMarks(line.text).count > 0;
}
