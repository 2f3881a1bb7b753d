import { create } from 'zustand';
import { showView } from '../../app/view-store';

/** A call the person wants a rule for ("Make a rule" on an audit row or a tool card): the builder starts from it. */
export interface RuleSeed {
  tool: string;
  input: unknown;
  /** A new seed each time, so the same call pressed twice pre-fills again. */
  nonce: number;
}

interface BuilderState {
  seed: RuleSeed | null;
}

export const useRuleSeed = create<BuilderState>(() => ({ seed: null }));

const FILE_TOOLS = new Set(['read_file', 'find_files', 'search_code', 'write_file', 'edit_file']);

/** Whether the builder can start from a call of this tool: a command, a file tool, an MCP tool. */
export function canMakeRule(tool: string): boolean {
  return tool === 'run_command' || FILE_TOOLS.has(tool) || /^mcp__[^_]/.test(tool);
}

let nonce = 0;

/** Opens the Rules view with the builder pre-filled from a call. */
export function makeRuleFrom(tool: string, input: unknown): void {
  useRuleSeed.setState({ seed: { tool, input, nonce: ++nonce } });
  showView('rules');
}
