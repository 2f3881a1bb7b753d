import type { z } from 'zod';
import type { SkillsChannels } from '../../../shared/skills-view-contract';
import { trustAnswer, type TrustOracle } from '../../core/permission/trust-oracle';
import { skillsOverview } from '../../core/definitions/skills-overview';

type Channels = typeof SkillsChannels;
export type SkillsHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

/** The Skills & sub-agents page: the open project's skills and sub-agents, as a run (and `gatehouse skills list`) finds them. */
export function createSkillsHandlers(opts: {
  currentProject(): string | null;
  configDir: string;
  trust: TrustOracle;
}): SkillsHandlers {
  return {
    listSkills: async () => {
      const project = opts.currentProject();
      const trust = project ? await trustAnswer(opts.trust, project) : null;
      return skillsOverview({ configDir: opts.configDir, projectRoot: project, trust });
    },
  };
}
