import type { RuleSeed } from './builder-store';
import type { RuleKind } from './rule-text';

/** What the builder starts from for a call: its kind, and the command, path or MCP tool to point at. */
export type SeedStart =
  | { kind: 'command'; command: string }
  | { kind: 'read' | 'edit'; path: string }
  | { kind: 'mcp'; server: string; tool: string | null };

const READS = new Set(['read_file', 'find_files', 'search_code']);
const WRITES = new Set(['write_file', 'edit_file']);

function field(input: unknown, key: string): string | null {
  if (typeof input !== 'object' || input === null) return null;
  const v = (input as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : null;
}

/** The builder's start for a call; null when the builder has nothing to point at for it. */
export function seedStart(seed: Pick<RuleSeed, 'tool' | 'input'>): SeedStart | null {
  if (seed.tool === 'run_command') {
    const command = field(seed.input, 'command');
    return command && command.trim() ? { kind: 'command', command } : null;
  }
  // find_files and search_code search a folder (the project when none is given).
  if (READS.has(seed.tool)) return { kind: 'read', path: field(seed.input, 'path') ?? '' };
  if (WRITES.has(seed.tool)) {
    const path = field(seed.input, 'path');
    return path ? { kind: 'edit', path } : null;
  }
  const mcp = /^mcp__(.+?)(?:__(.+))?$/.exec(seed.tool);
  return mcp ? { kind: 'mcp', server: mcp[1]!, tool: mcp[2] ?? null } : null;
}

export const KIND_LABELS: Record<RuleKind, string> = {
  command: 'A command',
  read: 'Reading files',
  edit: 'Editing or writing files',
  web: 'Fetching from a web domain',
  mcp: 'An MCP server or tool',
};
