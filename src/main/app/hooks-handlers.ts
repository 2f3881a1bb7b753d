import type { z } from 'zod';
import type { HooksChannels } from '../../shared/hooks-contract';
import { DEFAULT_HOOK_TIMEOUT_S, hookEntries } from '../hooks';
import { homeDir } from '../paths';
import { trustAnswerAsync, type TrustOracle } from '../permission/trust-oracle';
import { SettingsStore } from '../settings/settings-store';

type Channels = typeof HooksChannels;
export type HooksHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

export interface HooksHandlersOptions {
  currentProject(): string | null;
  configDir: string;
  env: NodeJS.ProcessEnv;
  trust: TrustOracle;
}

/**
 * The Hooks page: the same list as `gatehouse hooks list` (the settings as the engine reads them, the trust as it
 * is now), read without blocking the main thread. With no project open the list is empty.
 */
export function createHooksHandlers(opts: HooksHandlersOptions): HooksHandlers {
  return {
    listHooks: async () => {
      const project = opts.currentProject();
      if (!project) return { project, trusted: false, hooksEnabled: true, hooks: [], fileErrors: [] };
      const store = new SettingsStore({
        projectRoot: project,
        configDir: opts.configDir,
        home: homeDir(opts.env),
        env: opts.env,
      });
      const [snapshot, answer] = await Promise.all([store.snapshotAsync(), trustAnswerAsync(opts.trust, project)]);
      const { trusted } = answer;
      const hooksEnabled = answer.extensions.hooks;
      const entries = hookEntries(snapshot.hooks, { trusted, hooksEnabled });
      return {
        project,
        trusted,
        hooksEnabled,
        hooks: entries.map((h) => ({
          event: h.event,
          matcher: h.matcher,
          type: h.type,
          command: h.command,
          timeoutSeconds: h.timeout ?? DEFAULT_HOOK_TIMEOUT_S,
          scope: h.source,
          file: h.file,
          format: h.format,
          active: h.active,
          inactiveReason: h.inactiveReason,
          sandboxed: h.sandboxed,
        })),
        fileErrors: snapshot.fileErrors.map((e) => ({
          file: e.file,
          reason: e.line === null ? e.reason : `line ${e.line}: ${e.reason}`,
        })),
      };
    },
  };
}
