/** The sandbox configuration main sends the worker with every run (and with `sandbox.status`). */
import path from 'node:path';
import type { ReadDenyMaskWire, SandboxRunConfig } from '../../shared/worker-protocol';
import { homeDir } from '../paths';
import { loadSandboxSettings } from './sandbox-settings';

export interface SandboxRunConfigSources {
  /** The user config dir (settings, trust store): never readable from a command, never written by a tool. */
  configDir: string;
  projectRoot: string;
  projectTrusted: boolean;
  /** HOME (the secret folders `~/.ssh`...) and `GATEHOUSE_BWRAP`: an explicit bubblewrap binary. */
  env: NodeJS.ProcessEnv;
  /** What the Read deny rules hide in the sandbox (read-deny-mask.ts); absent: nothing. */
  readDeny?: ReadDenyMaskWire;
}

/**
 * `GATEHOUSE_BWRAP=/path/to/bwrap` picks the bubblewrap binary instead of the first on PATH; a path that does not
 * work makes the sandbox unavailable (every command then asks), which is how tests simulate a machine without it.
 */
export function bwrapOverride(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.GATEHOUSE_BWRAP?.trim();
  return value ? path.resolve(value) : undefined;
}

export async function sandboxRunConfig(
  sources: SandboxRunConfigSources,
): Promise<{ config: SandboxRunConfig; problems: string[] }> {
  const settings = await loadSandboxSettings(sources);
  const bwrapPath = bwrapOverride(sources.env);
  return {
    config: {
      enabled: settings.enabled,
      allowedDomains: settings.allowedDomains,
      envAllowList: settings.envAllowList,
      userConfigDir: path.resolve(sources.configDir),
      home: path.resolve(homeDir(sources.env)),
      ...(bwrapPath !== undefined ? { bwrapPath } : {}),
      ...(sources.readDeny !== undefined ? { readDeny: sources.readDeny } : {}),
    },
    problems: settings.problems,
  };
}
