import type { PermissionMode, RuleBehavior } from '../../../shared/permission';
import { parseRule } from '../rule-syntax/parse-rule';
import type { LoadedRule, RuleError, RuleSourceName } from '../rule-syntax/rule-types';
import type { SettingsFileError, SettingsKeyProblem } from './parse-settings';
import { settingsLocations, type SettingsLocation } from './settings-locations';
import type { FileMcpServer } from './mcp-config';
import type { FileHook } from './settings-schema';
import { LastGoodCache } from './last-good-cache';
import { settingsFileKeys } from './settings-file-keys';
import { WatchedSettingsFile } from './watched-settings-file';

export interface RuleText {
  behavior: RuleBehavior;
  rule: string;
}

/** A hook as configured in one settings file (see src/main/core/hooks for which of them run). */
export interface LoadedHook extends FileHook {
  source: SettingsLocation['source'];
  file: string;
  format: SettingsLocation['format'];
}

/** An MCP server as configured in one Gatehouse settings file (src/main/core/mcp decides which load). */
interface LoadedMcpServer extends FileMcpServer {
  source: SettingsLocation['source'];
  file: string;
}

interface AdditionalDirectory {
  dir: string;
  source: RuleSourceName;
  file: string;
}

/** Everything the settings say right now. `version` changes whenever any of it changed. */
export interface SettingsSnapshot {
  version: number;
  rules: LoadedRule[];
  ruleErrors: RuleError[];
  fileErrors: SettingsFileError[];
  /** Unknown keys in the files (`Deny:`, `permission:`), with file, line and a suggestion. */
  keyProblems: SettingsKeyProblem[];
  /**
   * Files that are broken (or refused: FIFO, device, too large) and never had a good version: their deny and ask
   * rules cannot be known, so the engine lets nothing through without a person while any is listed.
   */
  unknownRules: { file: string; source: RuleSourceName; reason: string }[];
  additionalDirectories: AdditionalDirectory[];
  /** Every hook of every file (policy first), active or not: trust decides which run (src/main/core/hooks). */
  hooks: LoadedHook[];
  /** Every MCP server entry of every Gatehouse settings file that parsed (policy first). */
  mcpServers: LoadedMcpServer[];
  /** The mode the settings ask for (local > project > user > policy), or null. */
  mode: { mode: PermissionMode; source: RuleSourceName; file: string } | null;
  files: { location: SettingsLocation; exists: boolean; error: SettingsFileError | null }[];
}

const BEHAVIORS: readonly RuleBehavior[] = ['deny', 'ask', 'allow'];
const MODE_PRECEDENCE: readonly RuleSourceName[] = ['local', 'project', 'user', 'policy'];

export interface SettingsStoreOptions {
  projectRoot: string;
  configDir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  cliRules?: readonly RuleText[];
}

/**
 * Every rule source: the settings files (stat'ed on each `snapshot()`, re-parsed when changed), this run's CLI
 * flags and this session's approvals (memory).
 */
export class SettingsStore {
  private readonly files: { location: SettingsLocation; watched: WatchedSettingsFile }[];
  private readonly persisted: LastGoodCache;
  private readonly cliRules: RuleText[];
  private readonly sessionRules: RuleText[] = [];
  private version = 0;
  private dirty = true;
  private cached: SettingsSnapshot | null = null;

  constructor(opts: SettingsStoreOptions) {
    const persisted = new LastGoodCache(opts.configDir);
    this.persisted = persisted;
    this.files = settingsLocations(opts).map((location) => ({
      location,
      watched: new WatchedSettingsFile(location.file, persisted, location.format, location.misplaced ?? null),
    }));
    this.cliRules = [...(opts.cliRules ?? [])];
  }

  addSessionRule(rule: RuleText): void {
    if (!this.sessionRules.some((r) => r.behavior === rule.behavior && r.rule === rule.rule)) {
      this.sessionRules.push(rule);
      this.dirty = true;
    }
  }

  listSessionRules(): readonly RuleText[] {
    return this.sessionRules;
  }

  /** Forgets one of this session's rules; false when it was not there. */
  removeSessionRule(rule: RuleText): boolean {
    const at = this.sessionRules.findIndex((r) => r.behavior === rule.behavior && r.rule === rule.rule);
    if (at === -1) return false;
    this.sessionRules.splice(at, 1);
    this.dirty = true;
    return true;
  }

  /** Resolves when the last-good versions seen so far are written to disk (they are written in the background). */
  flush(): Promise<void> {
    return this.persisted.flush();
  }

  /**
   * Looks at every file (settings-file-keys.ts); re-parses the changed ones; rebuilds the snapshot only when something
   * changed. Nothing blocks.
   */
  async snapshot(): Promise<SettingsSnapshot> {
    const keys = await settingsFileKeys(
      this.files.map((f) => ({ file: f.location.file, wasAbsent: f.watched.wasAbsent() })),
    );
    const changed = await Promise.all(this.files.map((f) => f.watched.refresh(keys.get(f.location.file))));
    if (changed.some((c) => c)) this.dirty = true;
    return this.built();
  }

  private built(): SettingsSnapshot {
    if (!this.dirty && this.cached) return this.cached;
    this.dirty = false;
    this.version++;
    this.cached = this.build();
    return this.cached;
  }

  private build(): SettingsSnapshot {
    const rules: LoadedRule[] = [];
    const ruleErrors: RuleError[] = [];
    const add = (text: string, behavior: RuleBehavior, source: RuleSourceName, file: string | null): void => {
      const parsed = parseRule(text);
      if (parsed.ok) rules.push({ ...parsed.rule, behavior, source, file });
      else ruleErrors.push({ rule: String(text), behavior, source, file, reason: parsed.reason });
    };
    for (const r of this.cliRules) add(r.rule, r.behavior, 'cli', null);
    for (const r of this.sessionRules) add(r.rule, r.behavior, 'session', null);
    const additionalDirectories: AdditionalDirectory[] = [];
    const hooks: LoadedHook[] = [];
    const mcpServers: LoadedMcpServer[] = [];
    const fileErrors: SettingsFileError[] = [];
    const keyProblems: SettingsKeyProblem[] = [];
    const unknownRules: SettingsSnapshot['unknownRules'] = [];
    let mode: SettingsSnapshot['mode'] = null;
    for (const { location, watched } of this.files) {
      const s = watched.current();
      const err = watched.error();
      if (err) fileErrors.push(err);
      keyProblems.push(...watched.keyProblems());
      if (err && watched.unknownRules())
        unknownRules.push({ file: location.file, source: location.source, reason: err.reason });
      for (const behavior of BEHAVIORS)
        for (const text of s[behavior]) add(text, behavior, location.source, location.file);
      for (const dir of s.additionalDirectories)
        additionalDirectories.push({ dir, source: location.source, file: location.file });
      for (const h of s.hooks ?? [])
        hooks.push({ ...h, source: location.source, file: location.file, format: location.format });
      for (const m of s.mcpServers ?? []) mcpServers.push({ ...m, source: location.source, file: location.file });
      if (location.source === 'project' || location.source === 'local')
        for (const k of s.userOnlyKeys ?? [])
          keyProblems.push({
            file: location.file,
            line: k.line,
            column: k.column,
            key: k.key,
            suggestion: null,
            reason: `${k.key} is not read from a project's settings: only your user settings and the managed policy can add a certificate authority`,
            effect: 'ignored',
          });
    }
    for (const source of MODE_PRECEDENCE) {
      const setting = this.files.filter(
        (f) => f.location.source === source && f.location.format === 'gatehouse' && f.watched.current().mode,
      );
      const [hit, ...others] = setting;
      // settings.yaml and its settings.json twin are both read; one mode applies per scope: the YAML file's.
      for (const other of others)
        if (other.watched.current().mode !== hit!.watched.current().mode)
          keyProblems.push({
            file: other.location.file,
            line: null,
            column: null,
            key: 'permissions.mode',
            suggestion: null,
            reason: `permissions.mode "${other.watched.current().mode!}" differs from "${hit!.watched.current().mode!}" in ${hit!.location.file}`,
            effect: `ignored: the mode of ${hit!.location.file} applies to this scope`,
          });
      if (hit && !mode) mode = { mode: hit.watched.current().mode!, source, file: hit.location.file };
    }
    return {
      version: this.version,
      rules,
      ruleErrors,
      fileErrors,
      keyProblems,
      unknownRules,
      additionalDirectories,
      hooks,
      mcpServers,
      mode,
      files: this.files.map((f) => ({ location: f.location, exists: f.watched.exists(), error: f.watched.error() })),
    };
  }
}
