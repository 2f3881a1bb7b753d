import type { ToolPreview } from '../../../shared/agent-events';

/**
 * The most characters of a diff a call's decision keeps. The approval shows a write's whole diff; the decision
 * event (the card after the run, the transcript, every page that loads the session) keeps its first hunks up to
 * this size and counts the lines it left out.
 */
export const MAX_STORED_DIFF_CHARS = 64 * 1024;

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;

/** A diff line of a hunk's body (not the "\ No newline at end of file" note, not the empty end). */
const isDiffLine = (line: string): boolean => /^[ +-]/.test(line);

/** The header of a hunk cut after `kept`: the same starts, the counts of the lines kept. */
function cutHeader(header: string, kept: readonly string[]): string {
  const m = HUNK_HEADER.exec(header);
  if (!m) return header;
  const old = kept.filter((l) => l.startsWith(' ') || l.startsWith('-')).length;
  const now = kept.filter((l) => l.startsWith(' ') || l.startsWith('+')).length;
  return `@@ -${m[1]},${old} +${m[2]},${now} @@${m[3] ?? ''}`;
}

/** `diff` cut to whole hunks within `max` characters (the first hunk that does not fit, cut by lines). */
export function cutUnifiedDiff(diff: string, max: number): { unifiedDiff: string; omittedLines: number } {
  if (diff.length <= max) return { unifiedDiff: diff, omittedLines: 0 };
  const lines = diff.split('\n');
  const out: string[] = [];
  let size = 0;
  let omitted = 0;
  let i = 0;
  for (; i < lines.length && !(lines[i] ?? '').startsWith('@@'); i++) {
    out.push(lines[i] ?? '');
    size += (lines[i] ?? '').length + 1;
  }
  while (i < lines.length) {
    const header = lines[i] ?? '';
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? '').startsWith('@@')) end++;
    const body = lines.slice(i + 1, end);
    const hunkSize = body.reduce((n, l) => n + l.length + 1, header.length + 1);
    if (omitted === 0 && size + hunkSize <= max) {
      out.push(header, ...body);
      size += hunkSize;
    } else if (omitted === 0) {
      const kept: string[] = [];
      let used = size + header.length + 1;
      for (const line of body) {
        if (used + line.length + 1 > max) break;
        kept.push(line);
        used += line.length + 1;
      }
      const keptLines = kept.filter(isDiffLine);
      if (keptLines.length > 0) out.push(cutHeader(header, keptLines), ...keptLines);
      omitted += body.filter(isDiffLine).length - keptLines.length;
    } else omitted += body.filter(isDiffLine).length;
    i = end;
  }
  return { unifiedDiff: `${out.join('\n')}\n`, omittedLines: omitted };
}

/** A preview as a call's decision keeps it: a diff over MAX_STORED_DIFF_CHARS cut (see cutUnifiedDiff). */
export function storedPreview(preview: ToolPreview): ToolPreview {
  if (preview.kind !== 'diff' || preview.unifiedDiff.length <= MAX_STORED_DIFF_CHARS) return preview;
  const cut = cutUnifiedDiff(preview.unifiedDiff, MAX_STORED_DIFF_CHARS);
  return {
    ...preview,
    unifiedDiff: cut.unifiedDiff,
    ...(cut.omittedLines > 0 ? { omittedLines: (preview.omittedLines ?? 0) + cut.omittedLines } : {}),
  };
}
