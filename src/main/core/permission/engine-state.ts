import { HOST_PATHS, type PathSystem } from '../../../shared/node/platform-path';
import type { AgentMode, PermissionMode, RuleBehavior } from '../../../shared/permission';
import { policyFile } from '../settings/settings-locations';
import { SettingsStore, type RuleText, type SettingsSnapshot } from '../settings/settings-store';
import type { LoadedRule } from '../rule-syntax/rule-types';
import { nodeDisk, PrefetchedFs, settle, type EngineDisk, type FsView } from '../paths/fs-view';
import { expandHome, PathConfinement, realDir } from '../paths/path-confinement';
import { ProtectedPaths } from './protected-paths';
import { RuleSet } from './rules/rule-set';
import type { EngineState } from './stage-types';
import { UNTRUSTED_ALLOW_EXCLUDED } from './stages/trust';
import { trustAnswer, type TrustAnswer, type TrustOracle } from './trust-oracle';

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
  /** How paths are spelled and compared (platform-path.ts): this machine's flavour, case folding per volume. */
  paths?: PathSystem;
  /** The disk paths are judged on (fs-view.ts): this machine's unless a test maps another platform's paths. */
  disk?: EngineDisk;
}

/** The managed policy file as the engine's paths spell it (another platform's: its own location or the override). */
function enginePolicyFile(env: NodeJS.ProcessEnv, sys: PathSystem): string {
  if (sys.flavor === HOST_PATHS.flavor) return policyFile(env);
  const override = env.GATEHOUSE_POLICY?.trim();
  return override ? sys.normalize(override) : policyFile(env, sys.flavor === 'win32' ? 'win32' : 'linux');
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
  /** Resolved (real paths, without blocking) once, as the engine is made. */
  private readonly protectedPaths: Promise<ProtectedPaths>;
  private mcpReadTools: ReadonlySet<string> = new Set();
  private built: { version: number; trusted: boolean; rules: RuleSet; confinement: PathConfinement } | null = null;
  private readonly sys: PathSystem;
  private readonly disk: EngineDisk;
  /** What the last `current` read. */
  private last: { snapshot: SettingsSnapshot; answer: TrustAnswer; protectedPaths: ProtectedPaths } | null = null;

  constructor(readonly options: EngineStateOptions) {
    const sys = (this.sys = options.paths ?? HOST_PATHS);
    const disk = (this.disk = options.disk ?? nodeDisk);
    const policy = enginePolicyFile(options.env, sys);
    // The settings files are read where this machine keeps them (the same places, unless a test maps paths).
    this.settings = new SettingsStore({
      projectRoot: disk.hostPath(options.projectRoot),
      configDir: disk.hostPath(options.configDir),
      home: disk.hostPath(options.home),
      env: disk === nodeDisk ? options.env : { ...options.env, GATEHOUSE_POLICY: disk.hostPath(policy) },
      cliRules: options.cliRules,
    });
    const protectedPaths = settle(
      (fs) =>
        new ProtectedPaths({
          projectRoot: options.projectRoot,
          configDir: options.configDir,
          home: options.home,
          policyFile: policy,
          sys,
          fs,
        }),
      this.prefetchingView(),
    );
    // Awaited by every decision, which then fails with its error; not an unhandled rejection before the first one.
    protectedPaths.catch(() => undefined);
    this.protectedPaths = protectedPaths;
  }

  /** A view of the disk filled without blocking (see fs-view.ts), for one asynchronous decision. */
  prefetchingView(): PrefetchedFs {
    return new PrefetchedFs(this.disk, this.sys);
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

  /** What the settings files say now (stat'ed, re-read when changed, without blocking). */
  snapshot(): Promise<SettingsSnapshot> {
    return this.settings.snapshot();
  }

  /**
   * The state a decision is judged in: the settings files and the trust store are read without blocking, and the
   * state's paths are judged through `view` (see fs-view.ts), which the caller fills asynchronously.
   */
  async current(
    overrides: { agentMode?: AgentMode; mode?: PermissionMode } = {},
    view: FsView = this.prefetchingView(),
  ): Promise<EngineState> {
    const [snapshot, answer, protectedPaths] = await Promise.all([
      this.settings.snapshot(),
      trustAnswer(this.options.trust, this.options.projectRoot),
      this.protectedPaths,
    ]);
    const rulesTrusted = loadsProjectRules(answer);
    if (this.stale(snapshot, rulesTrusted)) {
      const dirs = await Promise.all(
        this.extraDirs(snapshot, rulesTrusted).map((d) => realDir(d, this.options.home, this.sys, this.disk)),
      );
      if (this.stale(snapshot, rulesTrusted)) this.built = this.build(snapshot, rulesTrusted, dirs);
    }
    this.last = { snapshot, answer, protectedPaths };
    return this.stateFor(snapshot, answer, overrides, view, protectedPaths);
  }

  /**
   * The state as the last `current` read it, without reading anything (null before the first): only for looking
   * ahead at what a decision will need, never for deciding.
   */
  previous(overrides: { agentMode?: AgentMode; mode?: PermissionMode }, view: FsView): EngineState | null {
    const last = this.last;
    return last && this.stateFor(last.snapshot, last.answer, overrides, view, last.protectedPaths);
  }

  private stale(snapshot: SettingsSnapshot, trusted: boolean): boolean {
    return !this.built || this.built.version !== snapshot.version || this.built.trusted !== trusted;
  }

  /** Additional directories widen what file tools reach: an untrusted project's own settings cannot add any. */
  private extraDirs(snapshot: SettingsSnapshot, trusted: boolean): string[] {
    const { projectRoot, home } = this.options;
    return snapshot.additionalDirectories
      .filter((d) => trusted || !UNTRUSTED_ALLOW_EXCLUDED.has(d.source))
      .map((d) => this.sys.resolve(projectRoot, expandHome(d.dir, home, this.sys)));
  }

  private stateFor(
    snapshot: SettingsSnapshot,
    answer: TrustAnswer,
    overrides: { agentMode?: AgentMode; mode?: PermissionMode },
    view: FsView,
    protectedPaths: ProtectedPaths,
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
      confinement: built.confinement.withFs(view),
      protectedPaths,
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
    const sys = this.sys;
    const rules = new RuleSet(pending.length ? [...snapshot.rules, ...pending] : snapshot.rules, {
      projectRoot,
      home,
      sys,
    });
    return {
      version: snapshot.version,
      trusted,
      rules,
      // Each decision looks at the disk through its own view (`stateFor`): this one has fetched nothing.
      confinement: new PathConfinement(projectRoot, [...new Set(dirs)], home, this.prefetchingView(), sys),
    };
  }
}
