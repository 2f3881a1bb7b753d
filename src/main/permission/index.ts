import fs from 'node:fs';
import path from 'node:path';
import type { AgentMode, PermissionMode } from '../../shared/permission';
import { homeDir } from '../paths';
import type { RuleText } from '../settings/settings-store';
import { AuditLog } from './audit-log';
import { initShellParser } from './command';
import { PermissionEngine } from './engine';
import { EngineStateSource } from './engine-state';
import type { TrustOracle } from './trust-oracle';
import type { LoadedRule } from './rules/rule-types';

export { PermissionEngine } from './engine';
export type { DecideOptions, Evaluation } from './engine';
export type { TrustOracle } from './trust-oracle';
export { fixedTrust } from './trust-oracle';
export { AuditLog } from './audit-log';
export { applyApproval, proposeRules, withoutPerson, type ApprovalAnswer } from './approvals';
export type { RuleText } from '../settings/settings-store';

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
}

async function realHome(home: string): Promise<string> {
  try {
    return await fs.promises.realpath(home);
  } catch {
    return path.resolve(home);
  }
}

/** Builds the engine for one project. Loads the bash grammar once per process. */
export async function createPermissionEngine(options: CreatePermissionEngineOptions): Promise<PermissionEngine> {
  await initShellParser();
  const projectRoot = await fs.promises.realpath(path.resolve(options.projectRoot));
  const audit = options.audit === undefined ? new AuditLog({ configDir: options.configDir }) : options.audit;
  const home = await realHome(options.home ?? homeDir(options.env));
  return new PermissionEngine(
    new EngineStateSource({
      projectRoot,
      configDir: path.resolve(options.configDir),
      home,
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
