import path from 'node:path';
import { z } from 'zod';
import { AgentModeSchema } from '../../../shared/permission';
import { SKILL_NAME, TASK, type SubagentWire } from '../../../shared/skills-contract';
import type { DefinitionFolder, DefinitionRead } from '../skills/definition-files';
import { splitFrontMatter } from '../skills/front-matter';
import {
  discoverDefinitions,
  translatedTools,
  zodProblem,
  type DefinitionProblem,
  type Discovered,
} from '../skills/skills';

/**
 * Sub-agent definitions (Claude Code's `.claude/agents/<name>.md`): the person's `<Gatehouse home>/agents`, then the
 * project's `.gatehouse/agents` and `.claude/agents`, only in a trusted project; the first definition of a name wins.
 */
export function agentFolders(configDir: string): DefinitionFolder[] {
  return [
    { source: 'user', dir: path.join(configDir, 'agents') },
    { source: 'project', dir: path.join('.gatehouse', 'agents') },
    { source: 'project', dir: path.join('.claude', 'agents') },
  ];
}

const AgentFrontMatterSchema = z.looseObject({
  name: z.string().regex(SKILL_NAME, 'use lowercase letters, digits and "-" (at most 64 characters)'),
  description: z.string().trim().min(1, 'must not be empty').max(1024, 'at most 1024 characters'),
  model: z.string().min(1).max(200).optional(),
  agentMode: AgentModeSchema.optional(),
});

export function parseAgent(
  read: Extract<DefinitionRead, { kind: 'ok' }>,
): { item: SubagentWire; problems: DefinitionProblem[] } | DefinitionProblem {
  const fail = (reason: string): DefinitionProblem => ({ path: read.path, reason, severity: 'error' });
  const split = splitFrontMatter(read.text);
  if (!split.ok) return fail(split.reason);
  const parsed = AgentFrontMatterSchema.safeParse(split.data);
  if (!parsed.success) return fail(zodProblem(parsed.error));
  const tools = translatedTools(split.data.tools, 'tools', read.path);
  if ('error' in tools) return fail(tools.error);
  const problems = [...tools.problems];
  // A sub-agent never starts another: `task` in its list is left out (it could widen its own tools that way).
  const list = tools.tools?.filter((t) => t !== TASK);
  if (list && tools.tools && list.length !== tools.tools.length)
    problems.push({
      path: read.path,
      reason: 'tools: a sub-agent cannot start sub-agents; task is left out',
      severity: 'warning',
    });
  return {
    item: {
      name: parsed.data.name,
      description: parsed.data.description,
      ...(list !== undefined ? { tools: list } : {}),
      ...(parsed.data.agentMode ? { agentMode: parsed.data.agentMode } : {}),
      ...(parsed.data.model ? { model: parsed.data.model } : {}),
      body: split.body,
      path: read.path,
      source: read.source,
    },
    problems,
  };
}

/** The sub-agents a run may start: the person's, and the project's only when it is trusted. */
export function discoverAgents(options: {
  configDir: string;
  projectRoot: string | null;
  projectTrusted: boolean;
}): Promise<Discovered<SubagentWire>> {
  return discoverDefinitions(
    agentFolders(options.configDir),
    'agent',
    options.projectRoot,
    options.projectTrusted,
    parseAgent,
  );
}
