import path from 'node:path';
import type { SkillWire, SubagentWire } from '../../../shared/skills-contract';
import type { DefinitionView } from '../../../shared/skills-view-contract';
import { discoverAgents } from '../agents/agents';
import { readBackgroundAsk } from '../agents/background-ask';
import type { TrustAnswer } from '../permission/trust-oracle';
import { projectAgents, projectSkills } from './project-definitions';
import { discoverSkills, type DefinitionProblem, type Discovered } from '../skills/skills';

export interface SkillsOverview {
  project: string | null;
  trusted: boolean;
  projectLoaded: boolean;
  projectNote: string | null;
  skills: DefinitionView[];
  agents: DefinitionView[];
  problems: { path: string; reason: string }[];
  folders: { skills: string; agents: string };
  backgroundAsk: 'deny' | 'continue';
  backgroundAskProblem: string | null;
}

/** Whether a run in this project is offered the project's skills and sub-agents: trusted, with its instructions. */
function projectDefinitionsLoad(trust: TrustAnswer): boolean {
  return trust.trusted && trust.extensions.instructions;
}

function view(
  item: SkillWire | SubagentWire,
  tools: string[] | undefined,
  problems: readonly DefinitionProblem[],
  loaded: { loaded: boolean; reason: string | null },
): DefinitionView {
  return {
    name: item.name,
    description: item.description,
    path: item.path,
    source: item.source,
    tools: tools ?? null,
    agentMode: 'agentMode' in item ? (item.agentMode ?? null) : null,
    model: 'model' in item ? (item.model ?? null) : null,
    loaded: loaded.loaded,
    notLoadedReason: loaded.reason,
    warnings: problems.filter((p) => p.severity === 'warning' && p.path === item.path).map((p) => p.reason),
  };
}

/**
 * What the Skills & sub-agents page shows, read the way a run reads it (`discoverSkills`, `discoverAgents`, as
 * `gatehouse skills list`): the person's own and, in a trusted project with its instructions enabled, the project's.
 * The project's are listed even when they do not load, marked with why, so a person sees what trusting would add.
 */
export async function skillsOverview(opts: {
  configDir: string;
  projectRoot: string | null;
  trust: TrustAnswer | null;
}): Promise<SkillsOverview> {
  const trusted = opts.trust?.trusted ?? false;
  const projectLoaded = opts.projectRoot !== null && opts.trust !== null && projectDefinitionsLoad(opts.trust);
  const where = { configDir: opts.configDir, projectRoot: opts.projectRoot, projectTrusted: projectLoaded };
  const notLoaded = opts.projectRoot !== null && !projectLoaded;
  const [skills, agents, backgroundAsk, idleSkills, idleAgents] = await Promise.all([
    discoverSkills(where),
    discoverAgents(where),
    readBackgroundAsk(opts.configDir),
    notLoaded ? projectSkills(opts.projectRoot!) : null,
    notLoaded ? projectAgents(opts.projectRoot!) : null,
  ]);
  const projectNote = !notLoaded
    ? null
    : !trusted
      ? 'This project is not trusted: its skills and sub-agents load once you trust it.'
      : "This project's trust does not enable its instructions: its skills and sub-agents do not load.";
  const listed = <T extends SkillWire | SubagentWire>(
    found: Discovered<T>,
    idle: Discovered<T> | null,
    tools: (item: T) => string[] | undefined,
  ): DefinitionView[] => [
    ...found.items.map((item) => view(item, tools(item), found.problems, { loaded: true, reason: null })),
    ...(idle?.items ?? []).map((item) => {
      const taken = found.items.find((own) => own.name === item.name);
      const reason = taken ? `${projectNote} (and the name is taken by ${taken.path})` : projectNote;
      return view(item, tools(item), idle!.problems, { loaded: false, reason });
    }),
  ];
  const errors = [skills, agents, idleSkills, idleAgents].flatMap((d) =>
    (d?.problems ?? []).filter((p) => p.severity === 'error').map((p) => ({ path: p.path, reason: p.reason })),
  );
  return {
    project: opts.projectRoot,
    trusted,
    projectLoaded,
    projectNote,
    skills: listed(skills, idleSkills, (s) => s.allowedTools),
    agents: listed(agents, idleAgents, (a) => a.tools),
    problems: errors,
    folders: { skills: path.join(opts.configDir, 'skills'), agents: path.join(opts.configDir, 'agents') },
    backgroundAsk: backgroundAsk.value,
    backgroundAskProblem: backgroundAsk.problem,
  };
}
