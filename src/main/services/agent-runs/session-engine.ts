import fs from 'node:fs';
import path from 'node:path';
import { GatehouseError } from '../../../shared/errors';
import type { AgentMode } from '../../../shared/permission';
import { projectHookRuntime } from '../../core/hooks/hook-sandbox';
import { SessionHooks } from '../../core/hooks/session-hooks';
import { AuditLog } from '../../core/permission/audit-log';
import { createPermissionEngine } from '../../core/permission/create-engine';
import type { PermissionEngine } from '../../core/permission/engine';
import type { TrustOracle } from '../../core/permission/trust-oracle';
import type { SessionHeader } from '../../core/session/transcript-entry';
import { storeOracle } from '../../core/trust/trust-extensions';
import { TrustStore } from '../../core/trust/trust-store';
import type { AgentSessionOptions } from './types';

export interface SessionEngine {
  engine: PermissionEngine;
  trust: TrustOracle;
  hooks: SessionHooks;
}

/**
 * The permission engine of one session, with its trust oracle, audit log and hooks (Claude Code-compatible: user and
 * policy hooks run as the user, the project's in the OS sandbox).
 */
export async function openSessionEngine(
  options: AgentSessionOptions,
  header: SessionHeader,
  transcriptPath: string,
  agentMode: AgentMode,
): Promise<SessionEngine> {
  const trust: TrustOracle =
    options.trust ?? storeOracle(new TrustStore({ configDir: options.configDir, env: options.env }));
  const audit = new AuditLog({ configDir: options.configDir });
  const engine = await createPermissionEngine({
    projectRoot: header.projectRoot,
    configDir: options.configDir,
    env: options.env,
    trust,
    ...(options.cliRules ? { cliRules: options.cliRules } : {}),
    ...(options.mode ? { mode: options.mode } : {}),
    agentMode,
    sessionId: header.id,
    audit,
  });
  const hookRuntime = projectHookRuntime({
    projectRoot: header.projectRoot,
    configDir: options.configDir,
    env: options.env,
    sessionId: header.id,
    transcriptPath,
    audit: { log: audit, session: header.id },
  });
  const hooks = new SessionHooks(engine, hookRuntime.runtime, hookRuntime.dispose);
  return { engine, trust, hooks };
}

/** The real path of an existing folder, or a NOT_FOUND error naming it. */
export async function realDir(dir: string): Promise<string> {
  const resolved = path.resolve(dir);
  try {
    const real = await fs.promises.realpath(resolved);
    if ((await fs.promises.stat(real)).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new GatehouseError('NOT_FOUND', `project folder not found: ${resolved}`);
}
