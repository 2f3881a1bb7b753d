import type { AgentMode } from '../../shared/permission';
import { isSystemTool, toolListAllows, type SystemToolName } from '../../shared/skills-contract';
import type { ToolSafety } from '../../shared/tools';

/**
 * The run's one execution gate on tool names: what the model is shown (definitions) and what may run (checked again
 * right before a tool runs, after the permission decision: an approval or an allow rule never widens it).
 *
 * - agent mode: plan runs read-only tools only (system tools count as read-only);
 * - the run's allow-list (a sub-agent's `tools`): system tools too must be named in it;
 * - every skill loaded in this run narrows further (intersection, so a later skill can never widen an earlier one);
 *   system tools stay available under a skill (it could not be left otherwise).
 */
export class ToolGate {
  private readonly skills: { name: string; tools: readonly string[] }[] = [];

  constructor(
    readonly agentMode: AgentMode,
    /** The run's allow-list; undefined: every tool. */
    private readonly allowList: readonly string[] | undefined,
    /** The system tools this run offers (load_skill when there are skills, task when there are sub-agents). */
    private readonly systemTools: readonly SystemToolName[],
  ) {}

  /** The skills loaded in this run, in order. */
  get activeSkills(): readonly string[] {
    return this.skills.map((s) => s.name);
  }

  /** A skill was loaded: from now on only its allowed tools (and the system tools) pass. */
  narrow(skill: string, tools: readonly string[] | undefined): void {
    if (tools !== undefined) this.skills.push({ name: skill, tools });
  }

  /** Why the gate refuses `name` now (`tool_not_allowed: ...`), or null when it may run. */
  refusal(name: string, safety: ToolSafety | null): string | null {
    if (this.agentMode === 'plan' && safety !== 'readOnly')
      return `tool_not_allowed: ${name} is not available in plan mode (read-only tools only); the call was not run.`;
    if (isSystemTool(name)) {
      if (!this.systemTools.includes(name) || (this.allowList && !this.allowList.includes(name)))
        return `tool_not_allowed: ${name} is not available in this run; the call was not run.`;
      return null;
    }
    if (this.allowList && !toolListAllows(this.allowList, name))
      return `tool_not_allowed: ${name} is not in this run's tool allow-list; the call was not run.`;
    for (const skill of this.skills)
      if (!toolListAllows(skill.tools, name)) {
        const allowed = skill.tools.length ? skill.tools.join(', ') : 'none';
        return `tool_not_allowed: ${name} is not in the allowed tools of the active skill "${skill.name}" (${allowed}); the call was not run.`;
      }
    return null;
  }

  /** Whether `name` passes the gate now. */
  allows(name: string, safety: ToolSafety | null): boolean {
    return this.refusal(name, safety) === null;
  }

  /** The names among `names` that pass now: the registry's own re-check gets exactly these. */
  allowed(names: readonly { name: string; safety: ToolSafety | null }[]): string[] {
    return names.filter((t) => this.allows(t.name, t.safety)).map((t) => t.name);
  }
}
