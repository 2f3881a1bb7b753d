import type { SkillWire, SubagentWire } from '../../../shared/skills-contract';
import { agentFolders, parseAgent } from '../agents/agents';
import { discoverDefinitions, parseSkill, skillFolders, type Discovered } from '../skills/skills';

export type { Discovered } from '../skills/skills';

/** The project's own skills (what trusting it would add), for the trust dialog's preview. */
export function projectSkills(projectRoot: string): Promise<Discovered<SkillWire>> {
  return discoverDefinitions(
    skillFolders('').filter((f) => f.source === 'project'),
    'skill',
    projectRoot,
    true,
    (read) => {
      const parsed = parseSkill(read);
      return 'problem' in parsed ? parsed.problem : { item: parsed.skill, problems: parsed.problems };
    },
  );
}

/** The project's own sub-agents, for the trust dialog's preview. */
export function projectAgents(projectRoot: string): Promise<Discovered<SubagentWire>> {
  return discoverDefinitions(
    agentFolders('').filter((f) => f.source === 'project'),
    'agent',
    projectRoot,
    true,
    parseAgent,
  );
}
