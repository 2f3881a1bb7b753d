import { z } from 'zod';
import {
  LOAD_SKILL,
  LoadSkillInputSchema,
  TASK,
  TaskInputSchema,
  type SkillWire,
  type SubagentWire,
  type SystemToolName,
} from '../../shared/skills-contract';
import type { ToolDefinitionForModel, ToolResult } from '../tools/types';
import type { ToolGate } from './tool-gate';

function schema(s: z.ZodType): Record<string, unknown> {
  const json: Record<string, unknown> = { ...z.toJSONSchema(s, { io: 'input' }) };
  delete json.$schema;
  return json;
}

/** One line per definition for the model: `- name: description`. */
function catalogue(items: readonly { name: string; description: string }[]): string {
  return items.map((i) => `- ${i.name}: ${i.description.replace(/\s+/g, ' ')}`).join('\n');
}

/** The system tools a run offers: load_skill when there are skills, task when there are sub-agents to start. */
export function systemToolsOf(skills: readonly SkillWire[], subagents: readonly SubagentWire[]): SystemToolName[] {
  return [...(skills.length ? [LOAD_SKILL] : []), ...(subagents.length ? [TASK] : [])] as SystemToolName[];
}

/** Their definitions: the skills' and sub-agents' names and descriptions are what the model sees of them. */
export function systemToolDefinitions(
  skills: readonly SkillWire[],
  subagents: readonly SubagentWire[],
): ToolDefinitionForModel[] {
  const defs: ToolDefinitionForModel[] = [];
  if (skills.length)
    defs.push({
      name: LOAD_SKILL,
      description:
        'Load a skill: its instructions come back as the result and, while it is active, only the tools it allows ' +
        `can be used. Load one when the task matches its description. Skills:\n${catalogue(skills)}`,
      input_schema: schema(LoadSkillInputSchema),
    });
  if (subagents.length)
    defs.push({
      name: TASK,
      description:
        'Start a sub-agent on a self-contained task; its final answer comes back as the result. It has its own ' +
        `instructions and tools, and every call it makes is checked like yours. Sub-agents:\n${catalogue(subagents)}`,
      input_schema: schema(TaskInputSchema),
    });
  return defs;
}

/** The skills for the system prompt (names and descriptions only; the body is sent when the skill is loaded). */
export function skillsPrompt(skills: readonly SkillWire[]): string | undefined {
  if (!skills.length) return undefined;
  return `Skills you can load with load_skill when a task matches one:\n${catalogue(skills)}`;
}

/** Runs load_skill: narrows the gate to the skill's allowed tools and returns its instructions. */
export function loadSkill(input: unknown, skills: readonly SkillWire[], gate: ToolGate): ToolResult {
  const parsed = LoadSkillInputSchema.safeParse(input);
  if (!parsed.success)
    return { content: `invalid_input: load_skill: ${parsed.error.issues[0]?.message}`, isError: true };
  const skill = skills.find((s) => s.name === parsed.data.name);
  if (!skill)
    return {
      content: `unknown_skill: there is no skill named ${JSON.stringify(parsed.data.name)} (skills: ${skills.map((s) => s.name).join(', ')})`,
      isError: true,
    };
  gate.narrow(skill.name, skill.allowedTools);
  const tools =
    skill.allowedTools === undefined
      ? ''
      : `\n\nWhile this skill is active you can only use: ${[...skill.allowedTools, 'and the system tools'].join(', ')}.`;
  return {
    content: `<skill name="${skill.name}" file="${skill.path}">\n${skill.body}\n</skill>${tools}`,
    isError: false,
  };
}
