import { HOST_PATHS, type PathSystem } from '../../../shared/node/platform-path';
import { volumeFoldsCase } from '../../../shared/node/volume-case';
import type { AgentMode, PermissionMode } from '../../../shared/permission';
import { homeDir } from '../fs/config-dir';
import type { RuleText } from '../settings/settings-store';
import { AuditLog } from './audit-log';
import { initShellParser } from '../shell-analysis/parse/parser';
import { PermissionEngine } from './engine';
import { EngineStateSource } from './engine-state';
import { nodeDisk, type EngineDisk } from '../paths/fs-view';
import type { TrustOracle } from './trust-oracle';
import type { LoadedRule } from '../rule-syntax/rule-types';

export interface CreatePermissionEngineOptions {
  projectRoot: string;
  configDir: string;
  env: NodeJS.ProcessEnv;
  trust: TrustOracle;
  /** This run's `--allow/--ask/--deny` flags. */
  cliRules?: readonly RuleText[];
  /** This run's `--mode` (beats the settings files). */
  mode?: PermissionMode;
  agentMode?: AgentMode;
  /** Defaults to HOME from `env`. */
  home?: string;
  /** The audit log (default: `audit.jsonl` in configDir); null for none. */
  audit?: AuditLog | null;
  /** Names this session in the audit log. */
  sessionId?: string;
  /** Rules judged as if already written to their file (see EngineStateOptions.pendingRules). */
  pendingRules?: readonly LoadedRule[];
  /**
   * How paths are spelled and compared (platform-path.ts). Default: this machine's flavour, folding case where the
   * volume of the project or of the home folder does (asked of the volumes once, without blocking).
   */
  paths?: PathSystem;
  /** The disk paths are judged on (default: this machine's; a test maps another platform's paths onto it). */
  disk?: EngineDisk;
}

async function realHome(home: string, sys: PathSystem, disk: EngineDisk): Promise<string> {
  try {
    return sys.normalize(await disk.realpath(home));
  } catch {
    return sys.resolve(home);
  }
}

/** This machine's paths, folding case where the project's or the home folder's volume does (contract: per volume). */
async function hostPaths(projectRoot: string, home: string, disk: EngineDisk): Promise<PathSystem> {
  const folds = await Promise.all([projectRoot, home].map((dir) => volumeFoldsCase(dir, HOST_PATHS, disk.stat)));
  return HOST_PATHS.withFoldCase(folds.some(Boolean));
}

/** Builds the engine for one project. Loads the bash grammar once per process. */
export async function createPermissionEngine(options: CreatePermissionEngineOptions): Promise<PermissionEngine> {
  await initShellParser();
  const disk = options.disk ?? nodeDisk;
  const flavor = options.paths ?? HOST_PATHS;
  const projectRoot = flavor.normalize(await disk.realpath(flavor.resolve(options.projectRoot)));
  const audit = options.audit === undefined ? new AuditLog({ configDir: options.configDir }) : options.audit;
  const home = await realHome(options.home ?? homeDir(options.env), flavor, disk);
  const paths = options.paths ?? (await hostPaths(projectRoot, home, disk));
  return new PermissionEngine(
    new EngineStateSource({
      projectRoot,
      configDir: flavor.resolve(options.configDir),
      home,
      paths,
      disk,
      env: options.env,
      trust: options.trust,
      cliRules: options.cliRules,
      mode: options.mode,
      agentMode: options.agentMode,
      ...(options.pendingRules ? { pendingRules: options.pendingRules } : {}),
    }),
    audit === null ? null : { log: audit, session: options.sessionId ?? `pid-${process.pid}`, project: projectRoot },
  );
}
