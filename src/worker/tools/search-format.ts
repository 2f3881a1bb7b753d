import { capLine } from './truncate';
import { comparePaths } from './walk';

/** One matching line, the same from ripgrep and from the JS fallback. */
export interface SearchMatch {
  /** Path as shown to the model (relative to the project root when inside it). */
  path: string;
  line: number;
  text: string;
}

export const MAX_SEARCH_MATCHES = 500;
const MAX_MATCH_LINE_CHARS = 300;
export const MAX_SEARCH_FILE_BYTES = 10 * 1024 * 1024;

export interface SearchOutcome {
  matches: SearchMatch[];
  /** True when the search stopped at MAX_SEARCH_MATCHES. */
  capped: boolean;
}

/** `path:line:text` lines, files in walk order, lines ascending. */
export function formatMatches(outcome: SearchOutcome, pattern: string): string {
  if (outcome.matches.length === 0) return `No matches for /${pattern}/`;
  const sorted = [...outcome.matches].sort((a, b) => comparePaths(a.path, b.path) || a.line - b.line);
  const body = sorted.map((m) => `${m.path}:${m.line}:${capLine(m.text, MAX_MATCH_LINE_CHARS)}`).join('\n');
  return outcome.capped
    ? `${body}\n[results capped at ${MAX_SEARCH_MATCHES} matches; narrow the pattern, path or glob]`
    : body;
}

export function stripLineEnd(line: string): string {
  return line.replace(/\r?\n$/, '').replace(/\r$/, '');
}
