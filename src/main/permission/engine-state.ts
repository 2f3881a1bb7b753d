import path from 'node:path';
import type { AgentMode, PermissionMode, RuleBehavior } from '../../shared/permission';
import { policyFile } from '../settings/settings-locations';
import { SettingsStore, type RuleText, type SettingsSnapshot } from '../settings/settings-store';
import type { LoadedRule } from './rules/rule-types';
import { liveFs, PrefetchedFs, type FsView } from './fs-view';
import { expandHome, PathConfinement, realDir, realDirAsync } from './path-confinement';
import { ProtectedPaths } from './protected-paths';
import { RuleSet } from './rules/rule-set';
import type { EngineState } from './stage-types';
import { UNTRUSTED_ALLOW_EXCLUDED } from './stages/trust';
import { trustAnswer, trustAnswerAsync, type TrustAnswer, type TrustOracle } from './trust-oracle';

export interface EngineStateOptions {
  /** Real path of the project root. */
  projectRoot: string;
  configDir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  trust: TrustOracle;
  cliRules?: readonly RuleText[];
  /** This run's `--mode`: beats the settings files. */
  mode?: PermissionMode;
  agentMode?: AgentMode;
  /**
   * Rules judged as if they were in their settings file already (the rule builder's replay asks what a rule it has
   * not written yet would decide): their source's trust cap and rank apply as for a written one.
   */
  pendingRules?: readonly LoadedRule[];
}

/** A trusted project whose trust enables its rules: its allow rules, mode and directories are loaded. */
function loadsProjectRules(answer: TrustAnswer): boolean {
  return answer.trusted && answer.extensions.rules;
}

/** The settings files' mode as the engine applies it: an untrusted project's own files cannot set one. */
export function settingsModeInForce(snapshot: SettingsSnapshot, trusted: boolean): SettingsSnapshot['mode'] {
  return snapshot.mode && (trusted || !UNTRUSTED_ALLOW_EXCLUDED.has(snapshot.mode.source)) ? snapshot.mode : null;
}

/**
 * What the engine's stages need, kept current: the settings files are stat'ed on every call (re-parsed only when
 * changed), trust is asked on every call, and the compiled rules and allowed roots are rebuilt only when one of
 * those changed.
 */
export class EngineStateSource {
  readonly settings: SettingsStore;
  readonly protectedPaths: ProtectedPaths;
  private mcpReadTools: ReadonlySet<string> = new Set();
  private built: { version: number; trusted: boolean; rules: RuleSet; confinement: PathConfinement } | null = null;

  constructor(readonly options: EngineStateOptions) {
    this.settings = new SettingsStore({
      projectRoot: options.projectRoot,
      configDir: options.configDir,
      home: options.home,
      env: options.env,
      cliRules: options.cliRules,
    });
    this.protectedPaths = new ProtectedPaths({
      projectRoot: options.projectRoot,
      configDir: options.configDir,
      home: options.home,
      policyFile: policyFile(options.env),
    });
  }

  /** The MCP tools that count as reads (readOnlyHint on a server the person configured): set by the agent session. */
  setMcpReadTools(names: Iterable<string>): void {
    this.mcpReadTools = new Set(names);
  }

  get projectRoot(): string {
    return this.options.projectRoot;
  }

  addSessionRule(behavior: RuleBehavior, rule: string): void {
    this.settings.addSessionRule({ behavior, rule });
  }

  removeSessionRule(behavior: RuleBehavior, rule: string): boolean {
    return this.settings.removeSessionRule({ behavior, rule });
  }

  sessionRules(): readonly { behavior: RuleBehavior; rule: string }[] {
    return this.settings.listSessionRules();
  }

  snapshot(): SettingsSnapshot {
    return this.settings.snapshot();
  }

  current(overrides: { agentMode?: AgentMode; mode?: PermissionMode } = {}): EngineState {
    const snapshot = this.settings.snapshot();
    const answer = trustAnswer(this.options.trust, this.options.projectRoot);
    const rulesTrusted = loadsProjectRules(answer);
    if (this.stale(snapshot, rulesTrusted))
      this.built = this.build(
        snapshot,
        rulesTrusted,
        this.extraDirs(snapshot, rulesTrusted).map((d) => realDir(d, this.options.home)),
      );
    return this.stateFor(snapshot, answer, overrides, liveFs);
  }

  /**
   * `current` without blocking: the settings files and the trust store are read with fs.promises, and the state's
   * paths are judged through `view` (see fs-view.ts), which the caller fills asynchronously.
   */
  async currentAsync(
    overrides: { agentMode?: AgentMode; mode?: PermissionMode } = {},
    view: FsView = new PrefetchedFs(),
  ): Promise<EngineState> {
    const [snapshot, answer] = await Promise.all([
      this.settings.snapshotAsync(),
      trustAnswerAsync(this.options.trust, this.options.projectRoot),
    ]);
    const rulesTrusted = loadsProjectRules(answer);
    if (this.stale(snapshot, rulesTrusted)) {
      const dirs = await Promise.all(
        this.extraDirs(snapshot, rulesTrusted).map((d) => realDirAsync(d, this.options.home)),
      );
      if (this.stale(snapshot, rulesTrusted)) this.built = this.build(snapshot, rulesTrusted, dirs);
    }
    return this.stateFor(snapshot, answer, overrides, view);
  }

  private stale(snapshot: SettingsSnapshot, trusted: boolean): boolean {
    return !this.built || this.built.version !== snapshot.version || this.built.trusted !== trusted;
  }

  /** Additional directories widen what file tools reach: an untrusted project's own settings cannot add any. */
  private extraDirs(snapshot: SettingsSnapshot, trusted: boolean): string[] {
    const { projectRoot, home } = this.options;
    return snapshot.additionalDirectories
      .filter((d) => trusted || !UNTRUSTED_ALLOW_EXCLUDED.has(d.source))
      .map((d) => path.resolve(projectRoot, expandHome(d.dir, home)));
  }

  private stateFor(
    snapshot: SettingsSnapshot,
    answer: TrustAnswer,
    overrides: { agentMode?: AgentMode; mode?: PermissionMode },
    view: FsView,
  ): EngineState {
    const built = this.built as NonNullable<typeof this.built>;
    const trusted = answer.trusted;
    const settingsMode = settingsModeInForce(snapshot, loadsProjectRules(answer))?.mode ?? null;
    return {
      projectRoot: this.options.projectRoot,
      home: this.options.home,
      mode: overrides.mode ?? this.options.mode ?? settingsMode ?? 'default',
      agentMode: overrides.agentMode ?? this.options.agentMode ?? 'chat',
      trusted,
      confinement: view === liveFs ? built.confinement : built.confinement.withFs(view),
      protectedPaths: this.protectedPaths,
      rules: built.rules,
      unknownRules: snapshot.unknownRules,
      hooks: snapshot.hooks,
      projectRulesEnabled: answer.extensions.rules,
      projectHooksEnabled: answer.extensions.hooks,
      mcpReadTools: this.mcpReadTools,
    };
  }

  private build(snapshot: SettingsSnapshot, trusted: boolean, dirs: string[]): NonNullable<typeof this.built> {
    const { projectRoot, home } = this.options;
    const pending = this.options.pendingRules ?? [];
    const rules = new RuleSet(pending.length ? [...snapshot.rules, ...pending] : snapshot.rules, { projectRoot, home });
    return {
      version: snapshot.version,
      trusted,
      rules,
      confinement: new PathConfinement(projectRoot, [...new Set(dirs)], home),
    };
  }
}
