import type { AgentMode, PermissionMode } from '../../../shared/permission';
import { userConfigDir } from '../../core/fs/config-dir';
import type { RuleText } from '../../core/settings/settings-store';
import { createNodeWorkerHost } from '../worker-host/node-worker-host';
import { trustNetworkSettingsInProcess } from '../../core/network/process-trust';
import { AgentSession } from './agent-session';
import { resolveModelConfig } from './model-config';
import { readUserModelSettings } from './model-settings';
import type { Approver } from './types';

/** What a headless shell gives a session: its environment, working folder and a place for warnings. */
export interface HeadlessIO {
  env: NodeJS.ProcessEnv;
  cwd: string;
  err(line: string): void;
}

/** A headless session's options, as `gatehouse run` and `gatehouse rpc` read them from their flags. */
export interface SessionFlagValues {
  project?: string;
  mode?: PermissionMode;
  agentMode?: AgentMode;
  model?: string;
  cliRules: RuleText[];
  maxTurns?: number;
  resume?: string;
}

/**
 * Opens a session for a headless shell: the worker as a Node child process, the key from the environment or the
 * user's own settings file (never the project's); a malformed `model:` block is a warning on stderr.
 */
export async function openCliSession(
  values: SessionFlagValues,
  io: HeadlessIO,
  approve: Approver | null,
): Promise<AgentSession> {
  const configDir = userConfigDir(io.env);
  const modelSettings = await readUserModelSettings(configDir);
  for (const w of modelSettings.warnings) io.err(`gatehouse: ${w}`);
  const config = resolveModelConfig(
    io.env,
    values.model !== undefined ? { model: values.model } : {},
    modelSettings.settings,
  );
  const host = createNodeWorkerHost({ configDir, env: io.env });
  // This process is gatehouse run/rpc's own: auto mode's classifier trusts the settings' CAs too.
  trustNetworkSettingsInProcess({ configDir, env: io.env });
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
