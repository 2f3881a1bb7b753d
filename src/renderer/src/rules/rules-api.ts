import type { RuleScope } from '../../../shared/rules-contract';
import type { ToolName } from '../../../shared/tools';

/** How each scope is named in the editor, and whether the editor may write to it. */
export const SCOPE_LABELS: Record<RuleScope | 'claude', string> = {
  policy: 'Managed policy',
  cli: 'Command line',
  session: 'This session',
  local: 'Local (this machine, this project)',
  project: 'Project (shared)',
  user: 'User (all projects)',
  claude: 'Claude Code imports',
};

export const SCOPE_ORDER: readonly (RuleScope | 'claude')[] = [
  'policy',
  'cli',
  'session',
  'local',
  'project',
  'user',
  'claude',
];

/** The simulator's tools and the input field the one textbox fills. */
export const SIMULATED_TOOLS: readonly { tool: ToolName; label: string }[] = [
  { tool: 'run_command', label: 'run_command (Bash)' },
  { tool: 'read_file', label: 'read_file (Read)' },
  { tool: 'write_file', label: 'write_file (Write)' },
  { tool: 'edit_file', label: 'edit_file (Edit)' },
  { tool: 'find_files', label: 'find_files (Glob)' },
  { tool: 'search_code', label: 'search_code (Grep)' },
];

/** The tool input the simulator sends for "Command or path" (also what `gatehouse permissions check --call` gets). */
export function simulatedInput(tool: ToolName, text: string): Record<string, unknown> {
  switch (tool) {
    case 'run_command':
      return { command: text };
    case 'write_file':
      return { path: text, content: '' };
    case 'edit_file':
      return { path: text, old_string: 'x', new_string: 'y' };
    case 'find_files':
    case 'search_code':
      return { pattern: text };
    default:
      return { path: text };
  }
}
