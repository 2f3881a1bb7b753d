import { z } from 'zod';
import { AgentModeSchema } from './permission';
import { BackgroundAskSchema, DefinitionSourceSchema } from './skills-contract';

/**
 * The Skills & sub-agents page's channel: what `gatehouse skills list` shows, for the open project. Every definition
 * the person and the project have, where it comes from, the tools it allows, and whether a run loads it (a
 * project's only while it is trusted with its instructions). Spread into `ApiChannels` (api.ts).
 */

const DefinitionViewSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The SKILL.md or the agent's .md file. */
  path: z.string(),
  source: DefinitionSourceSchema,
  /** A skill's allowed-tools or a sub-agent's tools, as Gatehouse names them; null: not narrowed. */
  tools: z.array(z.string()).nullable(),
  /** Sub-agents only: their agent mode (chat when absent) and model (the run's when absent). */
  agentMode: AgentModeSchema.nullable(),
  model: z.string().nullable(),
  /** Whether a run in the open project is offered it. */
  loaded: z.boolean(),
  notLoadedReason: z.string().nullable(),
  /** Entries of its front matter that were left out (a specifier in allowed-tools, an unknown tool). */
  warnings: z.array(z.string()),
});
export type DefinitionView = z.infer<typeof DefinitionViewSchema>;

export const SkillsChannels = {
  listSkills: {
    request: z.object({}).strict(),
    response: z.object({
      project: z.string().nullable(),
      trusted: z.boolean(),
      /** The project's skills and sub-agents load (trusted, with its instructions enabled). */
      projectLoaded: z.boolean(),
      /** Why they do not, in one sentence (null when they do, or when no project is open). */
      projectNote: z.string().nullable(),
      skills: z.array(DefinitionViewSchema),
      agents: z.array(DefinitionViewSchema),
      /** Files that are not offered, and why (an error), with their path. */
      problems: z.array(z.object({ path: z.string(), reason: z.string() })),
      /** Where the person's own go (in the user config folder). */
      folders: z.object({ skills: z.string(), agents: z.string() }),
      /** `subagents.backgroundAsk`: what an ask of a sub-agent nobody watches becomes. */
      backgroundAsk: BackgroundAskSchema,
      backgroundAskProblem: z.string().nullable(),
    }),
  },
} as const;
