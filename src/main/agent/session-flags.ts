import path from 'node:path';
import { AgentModeSchema, PermissionModeSchema } from '../../shared/permission';
import type { AgentMode, PermissionMode, RuleBehavior } from '../../shared/permission';
import type { CliIO } from '../cli/command';
import { UsageError } from '../cli/command';
import type { ParsedFlags } from '../cli/permissions-command';
import { single } from '../cli/permissions-command';
import { userConfigDir } from '../paths';
import type { RuleText } from '../settings/settings-store';
import { createNodeWorkerHost } from '../worker-host';
import { AgentSession } from './agent-session';
import { resolveModelConfig } from './model-config';
import { readUserModelSettings } from './model-settings';
import type { Approver } from './types';

/** The flags `gatehouse run` and `gatehouse rpc` share. */
export const SESSION_FLAGS = ['project', 'mode', 'agent-mode', 'model', 'allow', 'ask', 'deny', 'max-turns', 'resume'] as const;

export interface SessionFlagValues {
  project?: string;
  mode?: PermissionMode;
  agentMode?: AgentMode;
  model?: string;
  cliRules: RuleText[];
  maxTurns?: number;
  resume?: string;
}

export function readSessionFlags(flags: ParsedFlags, cwd: string): SessionFlagValues {
  const out: SessionFlagValues = { cliRules: [] };
  const project = single(flags, 'project');
  if (project !== undefined) out.project = path.resolve(cwd, project);
  const mode = single(flags, 'mode');
  if (mode !== undefined) {
    const m = PermissionModeSchema.safeParse(mode);
    if (!m.success) throw new UsageError(`--mode must be one of ${PermissionModeSchema.options.join(', ')}`);
    out.mode = m.data;
  }
  const agentMode = single(flags, 'agent-mode');
  if (agentMode !== undefined) {
    const m = AgentModeSchema.safeParse(agentMode);
    if (!m.success) throw new UsageError('--agent-mode must be chat, plan or do');
    out.agentMode = m.data;
  }
  const model = single(flags, 'model');
  if (model !== undefined) out.model = model;
  const maxTurns = single(flags, 'max-turns');
  if (maxTurns !== undefined) {
    const n = Number(maxTurns);
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new UsageError('--max-turns must be a whole number from 1 to 1000');
    out.maxTurns = n;
  }
  const resume = single(flags, 'resume');
  if (resume !== undefined) out.resume = resume;
  const behaviors: RuleBehavior[] = ['allow', 'ask', 'deny'];
  out.cliRules = behaviors.flatMap((behavior) => (flags.values.get(behavior) ?? []).map((rule) => ({ behavior, rule })));
  return out;
}

/**
 * Opens a session for a headless shell: the worker as a Node child process, the key from the environment or the
 * user's own settings file (never the project's); a malformed `model:` block is a warning on stderr.
 */
export async function openCliSession(values: SessionFlagValues, io: CliIO, approve: Approver | null): Promise<AgentSession> {
  const configDir = userConfigDir(io.env);
  const modelSettings = readUserModelSettings(configDir);
  for (const w of modelSettings.warnings) io.err(`gatehouse: ${w}`);
  const config = resolveModelConfig(io.env, values.model !== undefined ? { model: values.model } : {}, modelSettings.settings);
  const host = createNodeWorkerHost({ configDir, env: io.env });
  try {
    return await AgentSession.open({
      host,
      configDir,
      env: io.env,
      project: values.project ?? (values.resume ? undefined : io.cwd),
      model: config.model,
      provider: config.provider,
      approve,
      cliRules: values.cliRules,
      ...(values.mode ? { mode: values.mode } : {}),
      ...(values.agentMode ? { agentMode: values.agentMode } : {}),
      ...(values.maxTurns ? { maxTurns: values.maxTurns } : {}),
      ...(values.resume ? { resume: values.resume } : {}),
    });
  } catch (err) {
    await host.stop();
    throw err;
  }
}
