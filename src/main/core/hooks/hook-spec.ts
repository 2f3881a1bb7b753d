import { TOOL_NAMES } from '../../../shared/tools';
import { CLAUDE_TOOL_NAMES } from './claude-tools';
import { compileMatcher } from './hook-matcher';

/** Claude Code's tool names a hook may match besides the ones Gatehouse maps (its hooks may name them). */
const OTHER_CLAUDE_TOOLS = ['MultiEdit', 'NotebookEdit', 'WebFetch', 'WebSearch', 'Task', 'LS', 'TodoWrite'];
/** SessionStart's matcher names how the session started. */
const SESSION_SOURCES = ['startup', 'resume', 'clear', 'compact'];
/** Events whose hooks run whatever the matcher says (Claude Code ignores it). */
const NO_MATCHER = new Set(['UserPromptSubmit', 'Stop', 'Notification']);
const PLAIN_LIST = /^[A-Za-z0-9_| ]+$/;

/**
 * A matcher as a person writes it in the Hooks page: `*` or empty (all), tool names (Claude Code's `Bash` or
 * Gatehouse's `run_command`, `A|B`), or a regular expression. An invalid expression is an error (never saved); a
 * name no tool has is a warning (Claude Code would silently never run it).
 */
export function checkHookMatcher(event: string, matcher: string): { error: string | null; warnings: string[] } {
  const m = matcher.trim();
  if (m === '' || m === '*') return { error: null, warnings: [] };
  if (NO_MATCHER.has(event))
    return {
      error: `${event} hooks have no matcher (they run for every ${event.toLowerCase()}): leave it empty`,
      warnings: [],
    };
  const compiled = compileMatcher(m);
  if (!compiled.ok) return { error: compiled.reason, warnings: [] };
  if (!PLAIN_LIST.test(m)) return { error: null, warnings: [] };
  const known = new Set<string>(
    event === 'SessionStart'
      ? SESSION_SOURCES
      : [...TOOL_NAMES, ...Object.values(CLAUDE_TOOL_NAMES), ...OTHER_CLAUDE_TOOLS],
  );
  const unknown = m
    .split('|')
    .map((n) => n.trim())
    .filter((n) => n && !known.has(n) && !n.startsWith('mcp__'));
  const what = event === 'SessionStart' ? `a session start (${SESSION_SOURCES.join(', ')})` : 'a tool';
  return {
    error: null,
    warnings: unknown.map((n) => `"${n}" is not the name of ${what}: this hook never runs for it`),
  };
}
