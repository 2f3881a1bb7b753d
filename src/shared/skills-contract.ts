import { z } from 'zod';
import { AgentModeSchema } from './permission';

/**
 * Skills and sub-agents, as main sends them to the worker for a run, and the names both sides agree on.
 *
 * A skill (`<folder>/SKILL.md`, Claude Code's format) has `name`, `description` and optional `allowed-tools`; its
 * body is what the model reads when it loads the skill with the system tool `load_skill`. While a skill is active
 * its allowed tools narrow what the run may call. A sub-agent (`<name>.md`) has `name`, `description`, optional
 * `tools`, `model` and Gatehouse's `agentMode`; its body is its system prompt. The `task` system tool starts one.
 */

/** The control-plane tools: judged by the engine's system stage (never by rules), gated by agent mode and names. */
export const LOAD_SKILL = 'load_skill';
export const TASK = 'task';
const SYSTEM_TOOLS = [LOAD_SKILL, TASK] as const;
export type SystemToolName = (typeof SYSTEM_TOOLS)[number];

export function isSystemTool(name: string): name is SystemToolName {
  return (SYSTEM_TOOLS as readonly string[]).includes(name);
}

/** A skill or sub-agent name: lowercase letters, digits and `-` (Claude Code's rule), at most 64 characters. */
export const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const name = z.string().regex(SKILL_NAME, 'use lowercase letters, digits and "-" (at most 64 characters)');

export const LoadSkillInputSchema = z.strictObject({ name: z.string().min(1).max(64).describe('The skill to load') });
export const TaskInputSchema = z.strictObject({
  agent: z.string().min(1).max(64).describe('The sub-agent to start (one of those listed)'),
  prompt: z.string().min(1).max(100_000).describe('What the sub-agent should do: everything it needs to know'),
  background: z
    .boolean()
    .optional()
    .describe('Run it with nobody watching: its permission questions are not shown to the person'),
});

/** Where a definition came from: the person's own folder, or the project (only loaded in a trusted project). */
export const DefinitionSourceSchema = z.enum(['user', 'project']);
export type DefinitionSource = z.infer<typeof DefinitionSourceSchema>;

/**
 * Tool names as a skill's `allowed-tools` or a sub-agent's `tools` give them, after translation: Gatehouse tool
 * names, system tool names, `mcp__<server>` / `mcp__<server>__*` (every tool of a server) and `mcp__<server>__<tool>`.
 */
const toolEntry = z.string().min(1).max(200);

export const SkillWireSchema = z.object({
  name,
  description: z.string().min(1).max(1024),
  /** Absent: the skill does not narrow the tools. */
  allowedTools: z.array(toolEntry).max(100).optional(),
  body: z.string().max(256 * 1024),
  path: z.string().min(1),
  source: DefinitionSourceSchema,
});
export type SkillWire = z.infer<typeof SkillWireSchema>;

export const SubagentWireSchema = z.object({
  name,
  description: z.string().min(1).max(1024),
  /** Absent: every tool of the run that started it (never `task`). */
  tools: z.array(toolEntry).max(100).optional(),
  agentMode: AgentModeSchema.optional(),
  model: z.string().min(1).max(200).optional(),
  /** Its system prompt. */
  body: z.string().max(256 * 1024),
  path: z.string().min(1),
  source: DefinitionSourceSchema,
});
export type SubagentWire = z.infer<typeof SubagentWireSchema>;

/** `subagents.backgroundAsk` (user settings only): what an `ask` of a sub-agent nobody watches becomes. */
export const BackgroundAskSchema = z.enum(['deny', 'continue']);
export type BackgroundAsk = z.infer<typeof BackgroundAskSchema>;

/** Who made a call: the sub-agent's id (unique in the run), its definition's name, and whether a person watches. */
export const AgentLabelSchema = z.object({
  id: z.string().min(1).max(100),
  name,
  background: z.boolean(),
  /** The sub-agent's agent mode (plan: read-only tools only), judged by the engine's agent-mode stage. */
  agentMode: AgentModeSchema,
});
export type AgentLabel = z.infer<typeof AgentLabelSchema>;

const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file'],
  Glob: ['find_files'],
  Grep: ['search_code'],
  LS: ['find_files'],
  Write: ['write_file'],
  Edit: ['edit_file'],
  MultiEdit: ['edit_file'],
  Bash: ['run_command'],
  Skill: [LOAD_SKILL],
  Task: [TASK],
};

/**
 * One `allowed-tools` / `tools` entry as Gatehouse tool names (Claude Code's `Read`, `Bash`... translated), or why
 * it is not used. An entry with a specifier (`Bash(git *)`) is refused: a skill narrows by tool name only, and
 * widening it to every command would be looser than written. The caller drops a refused entry (narrower).
 */
export function translateToolEntry(entry: string, knownTools: readonly string[]): string[] | string {
  const trimmed = entry.trim();
  if (/[()]/.test(trimmed))
    return `"${trimmed}": a specifier is not supported here (tools are narrowed by name only; use a permission rule for the command); the entry is left out`;
  const claude = CLAUDE_TOOL_NAMES[trimmed];
  if (claude) return [...claude];
  if (knownTools.includes(trimmed) || isSystemTool(trimmed)) return [trimmed];
  if (/^mcp__[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*(?:__(?:\*|[A-Za-z0-9_-]{1,64}))?$/.test(trimmed)) return [trimmed];
  return `"${trimmed}": no such tool; the entry is left out`;
}

/** Whether `tool` is one of `entries` (exact names; `mcp__srv` and `mcp__srv__*` cover every tool of `srv`). */
export function toolListAllows(entries: readonly string[], tool: string): boolean {
  for (const entry of entries) {
    if (entry === tool) return true;
    const server = /^mcp__(.+?)(?:__\*)?$/.exec(entry);
    if (server && !entry.slice(5).includes('__') && tool.startsWith(`mcp__${server[1]}__`)) return true;
    if (server && entry.endsWith('__*') && tool.startsWith(entry.slice(0, -1))) return true;
  }
  return false;
}
