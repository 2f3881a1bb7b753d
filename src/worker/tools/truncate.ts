/** Output caps: what the model sees is bounded, and every cut says so where it happened. */
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

export function omittedNote(count: number, unit = 'characters'): string {
  return `[... ${count.toLocaleString('en-US')} ${unit} omitted ...]`;
}

/**
 * Keeps the head and the tail of `text` within `max` characters, with a visible note in the middle saying how
 * much was cut. Cuts snap to a line boundary when one is near, so lines are rarely broken.
 */
export function truncateHeadTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const budget = Math.max(0, max - 60); // room for the note
  let headEnd = Math.ceil(budget / 2);
  let tailStart = text.length - Math.floor(budget / 2);
  const nlBefore = text.lastIndexOf('\n', headEnd);
  if (nlBefore > headEnd - 200 && nlBefore > 0) headEnd = nlBefore + 1;
  const nlAfter = text.indexOf('\n', tailStart);
  if (nlAfter !== -1 && nlAfter < tailStart + 200) tailStart = nlAfter + 1;
  const omitted = tailStart - headEnd;
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const sep1 = head.endsWith('\n') || head === '' ? '' : '\n';
  const sep2 = tail === '' ? '' : '\n';
  return `${head}${sep1}${omittedNote(omitted)}${sep2}${tail}`;
}

/** Cuts one over-long line (search results, numbered file lines). */
export function capLine(line: string, max: number): string {
  return line.length <= max
    ? line
    : `${line.slice(0, max)}… [${(line.length - max).toLocaleString('en-US')} more characters]`;
}
