import type { AgentMode } from '../../../../shared/permission';
import { isToolName, TOOLS } from '../../../../shared/tools';
import { decision, PASSTHROUGH, type StageAnswer } from '../stage-types';

/** Stage 1: in plan mode only read-only tools exist; a forged call to any other is denied, even in bypass mode. */
export function agentModeStage(toolName: string, agentMode: AgentMode): StageAnswer {
  if (agentMode !== 'plan') return PASSTHROUGH;
  if (isToolName(toolName) && TOOLS[toolName].safety === 'readOnly') return PASSTHROUGH;
  return decision(
    'deny',
    'agent-mode',
    `tool_not_allowed: plan mode: only read-only tools are available, "${toolName}" is not`,
  );
}
