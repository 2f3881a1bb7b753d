import type { z } from 'zod';
import { GatehouseError } from '../../../shared/errors';
import type { EditableHookScope, HookRef, HookSpec, HooksChannels } from '../../../shared/hooks-contract';
import { DEFAULT_HOOK_TIMEOUT_S, hookEntries, type HookEntry } from '../../core/hooks/active-hooks';
import { checkHookMatcher } from '../../core/hooks/hook-spec';
import { homeDir } from '../../core/fs/config-dir';
import { trustAnswer, type TrustOracle } from '../../core/permission/trust-oracle';
import { addHookToFile, removeHookFromFile, replaceHookInFile } from '../../core/hooks/edit-hooks-file';
import { ensureGitExcluded } from '../../core/settings/git-exclude';
import { localSettingsFile, scopeFile } from '../../core/settings/settings-locations';
import { SettingsStore } from '../../core/settings/settings-store';

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

/** Why a listed hook cannot be edited here, or null when it can. */
function readOnlyReason(h: HookEntry): string | null {
  if (h.format === 'claude') return "Claude Code's settings file: edit it in Claude Code (or the file itself)";
  if (h.source === 'policy') return 'managed policy: only your organisation changes it';
  if (h.file.endsWith('.json')) return `${h.file}: edit that file (the page writes the scope's settings.yaml)`;
  if (h.type !== 'command' || h.command === null) return `a "${h.type}" hook: only command hooks are edited here`;
  return null;
}

const specOf = (hook: HookSpec) => ({
  event: hook.event,
  matcher: hook.matcher,
  command: hook.command,
  ...(hook.timeoutSeconds !== undefined ? { timeoutSeconds: hook.timeoutSeconds } : {}),
});

const named = (h: HookRef): string => `${h.event} hook "${h.command}"${h.matcher ? ` (matcher ${h.matcher})` : ''}`;

/**
 * The Hooks page: the same list as `gatehouse hooks list` (the settings as the engine reads them, the trust as it
 * is now), read without blocking the main thread; and the edits of Gatehouse's own user, project and local files,
 * through the settings code the rules editor uses (yaml Document API, the file's lock, atomic writes, a broken file
 * refused). Claude Code's files and policy are never written. With no project open the list is empty.
 */
export function createHooksHandlers(opts: HooksHandlersOptions): HooksHandlers {
  const requireProject = (): string => {
    const project = opts.currentProject();
    if (!project) throw new GatehouseError('BAD_REQUEST', 'no project is open: open a folder to edit its hooks');
    return project;
  };
  /** Runs one file edit; a refused edit (bad matcher, broken file) is a clear error naming the file. */
  const edit = async (
    scope: EditableHookScope,
    run: (file: string) => Promise<boolean>,
  ): Promise<{ project: string; file: string; changed: boolean }> => {
    const project = requireProject();
    const file = scopeFile(scope, project, opts.configDir);
    let changed: boolean;
    try {
      changed = await run(file);
    } catch (err) {
      throw new GatehouseError('BAD_REQUEST', (err as Error).message);
    }
    return { project, file, changed };
  };
  return {
    listHooks: async () => {
      const project = opts.currentProject();
      if (!project) return { project, trusted: false, hooksEnabled: true, hooks: [], fileErrors: [], scopeFiles: null };
      const store = new SettingsStore({
        projectRoot: project,
        configDir: opts.configDir,
        home: homeDir(opts.env),
        env: opts.env,
      });
      const [snapshot, answer] = await Promise.all([store.snapshot(), trustAnswer(opts.trust, project)]);
      const { trusted } = answer;
      const hooksEnabled = answer.extensions.hooks;
      const entries = hookEntries(snapshot.hooks, { trusted, hooksEnabled });
      return {
        project,
        trusted,
        hooksEnabled,
        hooks: entries.map((h) => {
          const reason = readOnlyReason(h);
          return {
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
            editable: reason === null,
            readOnlyReason: reason,
          };
        }),
        fileErrors: snapshot.fileErrors.map((e) => ({
          file: e.file,
          reason: e.line === null ? e.reason : `line ${e.line}: ${e.reason}`,
        })),
        scopeFiles: {
          user: scopeFile('user', project, opts.configDir),
          project: scopeFile('project', project, opts.configDir),
          local: scopeFile('local', project, opts.configDir),
        },
      };
    },
    addHook: async ({ scope, hook }) => {
      const { project, file, changed } = await edit(scope, (f) => addHookToFile(f, specOf(hook)));
      if (scope === 'local') await ensureGitExcluded(project, localSettingsFile(project));
      return { changed, file };
    },
    updateHook: async ({ scope, from, to }) => {
      const { file, changed } = await edit(scope, (f) => replaceHookInFile(f, from, specOf(to)));
      if (!changed)
        throw new GatehouseError('NOT_FOUND', `${named(from)} is not in ${file} (changed on disk? Refresh the list)`);
      return { changed, file };
    },
    removeHook: async ({ scope, hook }) => {
      const { file, changed } = await edit(scope, (f) => removeHookFromFile(f, hook));
      if (!changed)
        throw new GatehouseError('NOT_FOUND', `${named(hook)} is not in ${file} (changed on disk? Refresh the list)`);
      return { changed, file };
    },
    validateHookMatcher: async ({ event, matcher }) => checkHookMatcher(event, matcher),
  };
}
