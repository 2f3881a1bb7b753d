import type { z } from 'zod';
import { GatehouseError } from '../../../../shared/errors';
import type { RuleBuilderChannels } from '../../../../shared/rule-builder-contract';
import { REPLAY_CALLS } from '../../../../shared/rule-builder-contract';
import { homeDir } from '../../../core/fs/config-dir';
import { createPermissionEngine } from '../../../core/permission/create-engine';
import { type PermissionEngine } from '../../../core/permission/engine';
import { parseRule } from '../../../core/rule-syntax/parse-rule';
import type { LoadedRule } from '../../../core/rule-syntax/rule-types';
import type { TrustOracle } from '../../../core/permission/trust-oracle';
import { scopeFile } from '../../../core/settings/settings-locations';
import type { SessionRules } from '../rules-handlers';
import { projectAudit, recentCommandsOf, replay, replayedCalls } from './audit-replay';
import { commandWords } from './command-words';
import { countRuleFiles } from './file-count';
import { listFolder } from './folder-listing';

type Channels = typeof RuleBuilderChannels;
export type RuleBuilderHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

export interface RuleBuilderOptions {
  currentProject(): string | null;
  configDir: string;
  env: NodeJS.ProcessEnv;
  trust: TrustOracle;
  /** The open chat session's own rules: the replay judges with them, as its next call would. */
  session?: SessionRules;
}

const RECENT_COMMANDS = 20;
/** Audit lines read for the replay: two per call at most (an ask and its answer). */
const REPLAY_LINES = REPLAY_CALLS * 2;

/**
 * The rule builder's channels. Every one works on the open project only: the folders it lists are the project's and
 * its additional directories' (as the engine confines file tools), the replay builds the engine exactly as
 * `gatehouse permissions check` does, twice (without the rule, and with it pending in its scope's file). Writing the
 * rule stays `addRule`, the writer the text form and the CLI use.
 */
export function createRuleBuilderHandlers(opts: RuleBuilderOptions): RuleBuilderHandlers {
  const requireProject = (): string => {
    const project = opts.currentProject();
    if (!project) throw new GatehouseError('BAD_REQUEST', 'no project is open: open a folder to build rules for it');
    return project;
  };
  const engine = async (projectRoot: string, pendingRules?: readonly LoadedRule[]): Promise<PermissionEngine> => {
    const built = await createPermissionEngine({
      projectRoot,
      configDir: opts.configDir,
      env: opts.env,
      trust: opts.trust,
      audit: null,
      ...(pendingRules ? { pendingRules } : {}),
    });
    for (const r of opts.session?.list(projectRoot) ?? []) built.state.addSessionRule(r.behavior, r.rule);
    return built;
  };
  /** Where file tools may go: the project, then the additional directories the engine loads (real paths). */
  const roots = async (project: string): Promise<readonly string[]> =>
    (await (await engine(project)).state.current()).confinement.roots;

  return {
    listRuleFolder: async ({ root, dir }) => {
      const project = requireProject();
      const all = await roots(project);
      const chosen = root ?? all[0]!;
      if (!all.includes(chosen))
        throw new GatehouseError(
          'FORBIDDEN',
          `${chosen} is neither the project nor one of its additional directories: the file tree cannot show it`,
        );
      const listing = await listFolder(chosen, dir);
      return {
        roots: all.map((p, i) => ({ path: p, kind: i === 0 ? ('project' as const) : ('additional' as const) })),
        root: chosen,
        dir,
        ...listing,
      };
    },
    countRuleFiles: async ({ rule }) => {
      const project = requireProject();
      return countRuleFiles(rule, { projectRoot: project, roots: await roots(project), home: homeDir(opts.env) });
    },
    commandWords: async ({ command }) => commandWords(command),
    recentCommands: async () => {
      const project = requireProject();
      return { commands: recentCommandsOf(await projectAudit(opts.configDir, project, 500), RECENT_COMMANDS) };
    },
    replayRule: async ({ rule, behavior, scope }) => {
      const project = requireProject();
      const parsed = parseRule(rule);
      if (!parsed.ok) throw new GatehouseError('BAD_REQUEST', `invalid rule: ${parsed.reason}`);
      const pending: LoadedRule = {
        ...parsed.rule,
        behavior,
        source: scope,
        file: scopeFile(scope, project, opts.configDir),
      };
      const calls = replayedCalls(await projectAudit(opts.configDir, project, REPLAY_LINES));
      const [before, after] = await Promise.all([engine(project), engine(project, [pending])]);
      return { checked: calls.reduce((n, c) => n + c.count, 0), flips: await replay(calls, before, after) };
    },
  };
}
