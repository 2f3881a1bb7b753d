import type { AgentMode } from '../../../shared/permission';

/** How the composer names each agent mode. */
export const AGENT_MODE_LABELS: Record<AgentMode, string> = { chat: 'Chat', plan: 'Plan', do: 'Do' };

/**
 * What each agent mode does, where it is chosen (the composer shows the chosen one's under the box; every option
 * has its own as a tooltip). Chat is not read-only: only Plan is. Every call still goes through the rules and the
 * permission mode.
 */
export const AGENT_MODE_HINTS: Record<AgentMode, string> = {
  chat: 'talks with you, and may edit files and run commands',
  plan: 'reads only and writes a plan; changes nothing',
  do: 'carries out a plan you confirmed: edits files, runs commands',
};
