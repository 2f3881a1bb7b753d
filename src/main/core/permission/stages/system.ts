import type { AgentMode, Decision } from '../../../../shared/permission';
import { isSystemTool, LOAD_SKILL, LoadSkillInputSchema, TaskInputSchema } from '../../../../shared/skills-contract';
import { decision, type HookVerdict } from '../stage-types';

const WHAT = {
  load_skill: "it loads a skill's instructions and narrows the tools",
  task: 'it starts a sub-agent, whose every call is judged',
} as const;

/**
 * The system stage: the control-plane tools (`load_skill`, `task`) are judged here, never by allow/deny/ask rules,
 * the defaults, trust or the mode (they run nothing themselves). What still applies: input validation and a
 * PreToolUse hook's deny. The agent-mode gate and the run's allowed names are the worker's execution gate; in plan
 * mode both tools stay available (a skill only narrows; a sub-agent started in plan mode is in plan mode too).
 * Null: not a system tool.
 */
export function systemEvaluation(
  tool: string,
  input: unknown,
  agentMode: AgentMode,
  hook: HookVerdict | null | undefined,
): Decision | null {
  if (!isSystemTool(tool)) return null;
  const parsed = (tool === LOAD_SKILL ? LoadSkillInputSchema : TaskInputSchema).safeParse(input);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(input)'}: ${i.message}`).join('; ');
    return decision('deny', 'schema', `invalid input for ${tool}: ${why}`);
  }
  if (hook?.decision === 'deny') return decision('deny', 'hook', hook.reason, hook.hooks);
  const plan = agentMode === 'plan' ? ' (plan mode: what it leads to stays read-only)' : '';
  return decision('allow', 'system', `system tool, never judged by rules: ${WHAT[tool]}${plan}`);
}
