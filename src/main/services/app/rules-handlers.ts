import type { z } from 'zod';
import { GatehouseError } from '../../../shared/errors';
import type { PermissionMode, RuleBehavior } from '../../../shared/permission';
import type { RuleEntry, RulesChannels } from '../../../shared/rules-contract';
import { homeDir } from '../../core/fs/config-dir';
import { AuditLog } from '../../core/permission/audit-log';
import { createPermissionEngine } from '../../core/permission/create-engine';
import { lintRule } from '../../core/permission/rules/lint-rule';

import { parseRule } from '../../core/rule-syntax/parse-rule';
import { trustedOrFalse, type TrustOracle } from '../../core/permission/trust-oracle';
import { addRuleToFile, removeRuleFromFile } from '../../core/settings/edit-rules-file';
import { ensureGitExcluded } from '../../core/settings/git-exclude';
import type { RuleFileOps } from '../../core/settings/move-rule';
import { MAX_SETTINGS_BYTES, readRegularFile } from '../../core/fs/read-regular-file';
import { parseSettingsText } from '../../core/settings/parse-settings';
import { localSettingsFile, scopeFile } from '../../core/settings/settings-locations';
import { settingsProblems } from '../../core/settings/settings-problems';
import { SettingsStore } from '../../core/settings/settings-store';
import { createRulesSettingsHandlers } from './rules-settings-handlers';

/** A rule's warnings for the editor (see lint-rule.ts), left out when there are none. */
function ruleWarnings(rule: string, behavior: RuleBehavior): { warnings?: string[] } {
  const { warnings } = lintRule(rule, behavior);
  return warnings.length ? { warnings } : {};
}

type Channels = typeof RulesChannels;
export type RulesHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

export interface RulesHandlersOptions {
  currentProject(): string | null;
  configDir: string;
  env: NodeJS.ProcessEnv;
  /** The app's TrustStore, as the engine sees it. */
  trust: TrustOracle;
  /** Tests only: the file operations a move between scopes uses. */
  moveOps?: RuleFileOps;
  /** The open chat session's own rules (its "allow for this session" answers); absent: none. */
  session?: SessionRules;
}

/** Where a session rule lives, for the editor's messages: memory, never a file. */
const SESSION_RULES_PLACE = 'this chat session (memory only)';

/** The session rules of the chat session open for a project (empty when none is open for it). */
export interface SessionRules {
  list(project: string): readonly { behavior: RuleBehavior; rule: string }[];
  remove(project: string, behavior: RuleBehavior, rule: string): boolean;
}

/** The default mode a scope file sets, as the settings loader reads it (null: none, missing or not loadable). */
async function fileMode(file: string): Promise<PermissionMode | null> {
  let text: string;
  try {
    text = await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' });
  } catch {
    return null;
  }
  const parsed = parseSettingsText(file, text);
  return parsed.ok ? (parsed.settings.mode ?? null) : null;
}

/**
 * The rules editor's channels. Listing and editing go through the same settings code as `gatehouse rules`
 * (yaml Document API, atomic writes); `testCall` builds the engine exactly as `gatehouse permissions check` does, and
 * adds the open chat session's own rules (what its next call would meet). Session rules are listed and deletable.
 * Only Gatehouse's own user/project/local files are ever written: policy and Claude Code imports are read only.
 */
export function createRulesHandlers(opts: RulesHandlersOptions): RulesHandlers {
  const requireProject = (): string => {
    const project = opts.currentProject();
    if (!project)
      throw new GatehouseError('BAD_REQUEST', 'no project is open: open a folder to see and edit its rules');
    return project;
  };
  const store = (projectRoot: string) =>
    new SettingsStore({ projectRoot, configDir: opts.configDir, home: homeDir(opts.env), env: opts.env });

  return {
    listRules: async () => {
      const project = requireProject();
      const snapshot = await store(project).snapshot();
      const claudeFiles = new Set(
        snapshot.files.filter((f) => f.location.format === 'claude').map((f) => f.location.file),
      );
      const rules: RuleEntry[] = snapshot.rules.map((r) => {
        const claudeImport = r.file !== null && claudeFiles.has(r.file);
        return {
          rule: r.text,
          behavior: r.behavior,
          scope: r.source,
          file: r.file,
          claudeImport,
          // Only a scope's settings.yaml is written here: a rule of its settings.json twin is edited in that file.
          editable:
            !claudeImport &&
            (r.source === 'user' || r.source === 'project' || r.source === 'local') &&
            r.file === scopeFile(r.source, project, opts.configDir),
          appliesToTools: r.tools.length > 0,
          ...ruleWarnings(r.text, r.behavior),
        };
      });
      for (const r of opts.session?.list(project) ?? []) {
        const parsed = parseRule(r.rule);
        rules.push({
          rule: r.rule,
          behavior: r.behavior,
          scope: 'session',
          file: null,
          claudeImport: false,
          editable: true,
          appliesToTools: parsed.ok && parsed.rule.tools.length > 0,
          ...ruleWarnings(r.rule, r.behavior),
        });
      }
      return {
        project,
        trusted: await trustedOrFalse(opts.trust, project),
        rules,
        ruleErrors: snapshot.ruleErrors.map((e) => ({
          rule: e.rule,
          behavior: e.behavior,
          scope: e.source,
          file: e.file,
          reason: e.reason,
        })),
        // File problems and unknown keys, each with what it means (`effect`) and, for a key, a suggestion.
        fileErrors: settingsProblems(snapshot),
        mode: snapshot.mode,
        additionalDirectories: snapshot.additionalDirectories.map((d) => ({
          dir: d.dir,
          source: d.source,
          file: d.file,
        })),
        scopeFiles: {
          user: scopeFile('user', project, opts.configDir),
          project: scopeFile('project', project, opts.configDir),
          local: scopeFile('local', project, opts.configDir),
        },
        scopeModes: {
          user: await fileMode(scopeFile('user', project, opts.configDir)),
          project: await fileMode(scopeFile('project', project, opts.configDir)),
          local: await fileMode(scopeFile('local', project, opts.configDir)),
        },
      };
    },
    addRule: async ({ rule, behavior, scope }) => {
      const project = requireProject();
      const file = scopeFile(scope, project, opts.configDir);
      let changed: boolean;
      try {
        changed = await addRuleToFile(file, behavior, rule);
      } catch (err) {
        throw new GatehouseError('BAD_REQUEST', (err as Error).message);
      }
      if (scope === 'local') await ensureGitExcluded(project, localSettingsFile(project));
      return { changed, file };
    },
    removeRule: async ({ rule, behavior, scope }) => {
      const project = requireProject();
      if (scope === 'session') {
        if (!opts.session?.remove(project, behavior, rule))
          throw new GatehouseError('NOT_FOUND', `${behavior} rule "${rule}" is not one of this session's rules`);
        return { changed: true, file: SESSION_RULES_PLACE };
      }
      const file = scopeFile(scope, project, opts.configDir);
      let changed: boolean;
      try {
        changed = await removeRuleFromFile(file, behavior, rule);
      } catch (err) {
        throw new GatehouseError('BAD_REQUEST', (err as Error).message);
      }
      if (!changed) throw new GatehouseError('NOT_FOUND', `${behavior} rule "${rule}" is not in ${file}`);
      return { changed, file };
    },
    ...createRulesSettingsHandlers({
      requireProject,
      configDir: opts.configDir,
      env: opts.env,
      trust: opts.trust,
      ...(opts.moveOps ? { moveOps: opts.moveOps } : {}),
    }),
    validateRule: async ({ rule, behavior }) => {
      const lint = lintRule(rule, behavior ?? 'allow');
      return lint.error !== null ? { ok: false, error: lint.error } : { ok: true, warnings: lint.warnings };
    },
    testCall: async ({ tool, input }) => {
      const projectRoot = requireProject();
      const engine = await createPermissionEngine({
        projectRoot,
        configDir: opts.configDir,
        env: opts.env,
        trust: opts.trust,
        sessionId: `app-rules-test-${process.pid}`,
        // "Test a call" is a simulation: recorded apart from the real decisions (audit-simulations.jsonl).
        audit: AuditLog.simulations(opts.configDir),
      });
      // What the next call of the open chat session would meet: its own "allow for this session" rules too.
      for (const r of opts.session?.list(projectRoot) ?? []) engine.state.addSessionRule(r.behavior, r.rule);
      const d = await engine.decide({ tool, input });
      await engine.flushAudit();
      return { decision: d.decision, source: d.source, rule: d.rule, reason: d.reason };
    },
  };
}
