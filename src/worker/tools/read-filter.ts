import type { HiddenFile } from '../../shared/worker-protocol';
import { MAX_READABLE_PATHS } from '../../shared/worker-protocol';
import { ToolError } from './tool';

/**
 * Asks main which of these files (shown paths, at most MAX_READABLE_PATHS) reading would be denied or would need
 * approval. The search tools leave those out of their results: main decides, the worker only asks.
 */
export type ReadableCheck = (paths: string[], signal: AbortSignal) => Promise<HiddenFile[]>;

/** How many batches are in flight at once. */
const PARALLEL_BATCHES = 4;
/** Files named in the note; the rest are counted. */
const MAX_NAMED = 10;

export interface ReadableSplit {
  /** The shown paths main did not object to. */
  visible: Set<string>;
  /** The shown paths left out, in the order given. */
  hidden: string[];
}

/**
 * Splits shown paths into visible and hidden, one request per batch of unique paths. Fails closed: a check that
 * throws, or an answer naming a path that was not asked about, is a ToolError (the tool returns no results).
 */
export async function splitReadable(
  paths: readonly string[],
  check: ReadableCheck | undefined,
  signal: AbortSignal,
): Promise<ReadableSplit> {
  if (check === undefined)
    throw new ToolError('read_check_failed: there is no way to ask main which files may be read; no results are shown');
  const unique = [...new Set(paths)];
  const batches: string[][] = [];
  for (let i = 0; i < unique.length; i += MAX_READABLE_PATHS) batches.push(unique.slice(i, i + MAX_READABLE_PATHS));
  const hiddenSet = new Set<string>();
  for (let i = 0; i < batches.length; i += PARALLEL_BATCHES) {
    const group = batches.slice(i, i + PARALLEL_BATCHES);
    const answers = await Promise.all(group.map((batch) => askBatch(batch, check, signal)));
    for (const hidden of answers) for (const p of hidden) hiddenSet.add(p);
  }
  const visible = new Set<string>();
  const hidden: string[] = [];
  for (const p of unique) {
    if (hiddenSet.has(p)) hidden.push(p);
    else visible.add(p);
  }
  return { visible, hidden };
}

async function askBatch(batch: string[], check: ReadableCheck, signal: AbortSignal): Promise<string[]> {
  if (signal.aborted) throw new ToolError('cancelled before main said which files may be read');
  let answer: HiddenFile[];
  try {
    answer = await check(batch, signal);
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError(
      `read_check_failed: main did not say which files may be read (${err instanceof Error ? err.message : String(err)}); no results are shown`,
    );
  }
  const asked = new Set(batch);
  for (const h of answer) {
    if (!asked.has(h.path))
      throw new ToolError(
        'read_check_failed: main answered about a file that was not asked about; no results are shown',
      );
  }
  return answer.map((h) => h.path);
}

/**
 * `(2 files left out: reading them is denied or needs approval — .env, secrets/key.txt; ask to read one with
 * read_file)`: names only, never contents. Empty when nothing was left out.
 */
export function leftOutNote(hidden: readonly string[]): string {
  if (hidden.length === 0) return '';
  const named = hidden.slice(0, MAX_NAMED).join(', ');
  const rest = hidden.length - MAX_NAMED;
  const names = rest > 0 ? `${named} and ${rest.toLocaleString('en-US')} more` : named;
  const count =
    hidden.length === 1
      ? '1 file left out: reading it is'
      : `${hidden.length.toLocaleString('en-US')} files left out: reading them is`;
  return `(${count} denied or needs approval — ${names}; ask to read one with read_file)`;
}

/** `body`, then the note on a line of its own when there is one. */
export function withLeftOutNote(body: string, hidden: readonly string[]): string {
  const note = leftOutNote(hidden);
  return note === '' ? body : `${body}\n${note}`;
}
