import fs from 'node:fs';
import path from 'node:path';
import { GatehouseError } from '../../../shared/errors';
import type { EditableScope } from '../../../shared/rules-contract';
import { homeDir } from '../../core/fs/config-dir';
import { expandHome } from '../../core/paths/path-confinement';
import { trustedOrFalse, type TrustOracle } from '../../core/permission/trust-oracle';
import { replaceRuleInFile } from '../../core/settings/edit-rules-file';
import { addDirectoryToFile, removeDirectoryFromFile, setModeInFile } from '../../core/settings/edit-settings-file';
import { ensureGitExcluded } from '../../core/settings/git-exclude';
import { moveRuleBetweenFiles, PartialMoveError, RuleNotFoundError } from '../../core/settings/move-rule';
import type { RuleFileOps } from '../../core/settings/move-rule';
import { localSettingsFile, scopeFile } from '../../core/settings/settings-locations';
import type { RulesHandlers } from './rules-handlers';

export interface RulesSettingsHandlersOptions {
  requireProject(): string;
  configDir: string;
  env: NodeJS.ProcessEnv;
  trust: TrustOracle;
  /** Tests only: the file operations a move uses. */
  moveOps?: RuleFileOps;
}

const BYPASS_UNTRUSTED_FILE =
  'bypass cannot be the default mode of an untrusted project\u2019s own settings: trust the project first';
const AUTO_UNTRUSTED_FILE =
  'auto cannot be the default mode of an untrusted project\u2019s own settings: trust the project first';

/** Turns a settings-edit failure into a contract error (the message names the file and the reason). */
function asContractError(err: unknown): GatehouseError {
  if (err instanceof GatehouseError) return err;
  if (err instanceof RuleNotFoundError) return new GatehouseError('NOT_FOUND', err.message);
  if (err instanceof PartialMoveError) return new GatehouseError('INTERNAL', err.message);
  return new GatehouseError('BAD_REQUEST', err instanceof Error ? err.message : String(err));
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asContractError(err);
  }
}

type Handled = 'updateRule' | 'setScopeMode' | 'addDirectory' | 'removeDirectory';

/** The rules editor's edits besides add/remove: edit or move a rule, a scope's default mode, additional directories. */
export function createRulesSettingsHandlers(opts: RulesSettingsHandlersOptions): Pick<RulesHandlers, Handled> {
  const fileOf = (scope: EditableScope, project: string): string => scopeFile(scope, project, opts.configDir);
  const keepLocalOutOfGit = async (scope: EditableScope, project: string): Promise<void> => {
    if (scope === 'local') await ensureGitExcluded(project, localSettingsFile(project));
  };

  return {
    updateRule: async ({ from, to }) => {
      const project = opts.requireProject();
      const fromFile = fileOf(from.scope, project);
      const toFile = fileOf(to.scope, project);
      const result = await guarded(async () => {
        if (fromFile === toFile) {
          if (!(await replaceRuleInFile(fromFile, from, to)))
            throw new RuleNotFoundError(`${from.behavior} rule "${from.rule}" is not in ${fromFile}`);
          return { changed: true, files: [fromFile] };
        }
        return moveRuleBetweenFiles(fromFile, from, toFile, to, opts.moveOps);
      });
      await keepLocalOutOfGit(to.scope, project);
      return result;
    },
    setScopeMode: async ({ scope, mode }) => {
      const project = opts.requireProject();
      const file = fileOf(scope, project);
      if (
        (mode === 'bypassPermissions' || mode === 'auto') &&
        scope !== 'user' &&
        !(await trustedOrFalse(opts.trust, project))
      ) {
        const message = mode === 'auto' ? AUTO_UNTRUSTED_FILE : BYPASS_UNTRUSTED_FILE;
        throw new GatehouseError('FORBIDDEN', `${message} (${file})`);
      }
      const changed = await guarded(() => setModeInFile(file, mode));
      await keepLocalOutOfGit(scope, project);
      return { changed, file };
    },
    addDirectory: async ({ scope, dir }) => {
      const project = opts.requireProject();
      const file = fileOf(scope, project);
      const resolved = path.resolve(project, expandHome(dir, homeDir(opts.env)));
      let stat: fs.Stats;
      try {
        stat = await fs.promises.stat(resolved);
      } catch {
        throw new GatehouseError(
          'BAD_REQUEST',
          `directory "${dir}" does not exist (looked for ${resolved}); create it first or fix the path`,
        );
      }
      if (!stat.isDirectory()) throw new GatehouseError('BAD_REQUEST', `"${dir}" is not a directory (${resolved})`);
      const changed = await guarded(() => addDirectoryToFile(file, dir));
      await keepLocalOutOfGit(scope, project);
      return { changed, file, resolved };
    },
    removeDirectory: async ({ scope, dir }) => {
      const project = opts.requireProject();
      const file = fileOf(scope, project);
      const changed = await guarded(() => removeDirectoryFromFile(file, dir));
      if (!changed) throw new GatehouseError('NOT_FOUND', `directory "${dir}" is not listed in ${file}`);
      return { changed, file };
    },
  };
}
