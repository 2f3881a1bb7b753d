/** The sandbox configuration main sends the worker with every run (and with `sandbox.status`). */
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import type { ReadDenyMaskWire, SandboxRunConfig } from '../../../shared/worker-protocol';
import { isDoorVariable, socketsNamedBy } from '../../../sandbox/door-env';
import { homeDir } from '../fs/config-dir';
import { policyFile } from '../settings/settings-locations';
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
function bwrapOverride(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.GATEHOUSE_BWRAP?.trim();
  return value ? path.resolve(value) : undefined;
}

/**
 * The variables of the person's environment that name a socket they opened (SSH_AUTH_SOCK for the agent): the
 * worker's environment is built without them, so they travel with the configuration.
 */
async function openSocketEnv(env: NodeJS.ProcessEnv, opened: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (opened.length === 0) return out;
  // Compared as named and as they really are: a variable may name a link to the socket, or the socket a link.
  const real = (p: string): Promise<string[]> =>
    fsp.realpath(p).then(
      (r) => [p, r],
      () => [p],
    );
  const open = new Set((await Promise.all(opened.map(real))).flat());
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !isDoorVariable(name)) continue;
    const named = (await Promise.all(socketsNamedBy(name, value, env).map(real))).flat();
    if (named.some((p) => open.has(p))) out[name] = value;
  }
  return out;
}

export async function sandboxRunConfig(
  sources: SandboxRunConfigSources,
): Promise<{ config: SandboxRunConfig; problems: string[] }> {
  const home = path.resolve(homeDir(sources.env));
  const settings = await loadSandboxSettings({ ...sources, home, policyFile: policyFile(sources.env) });
  const bwrapPath = bwrapOverride(sources.env);
  const runtimeDir = sources.env.XDG_RUNTIME_DIR;
  const socketEnv = await openSocketEnv(sources.env, settings.allowUnixSockets);
  return {
    config: {
      enabled: settings.enabled,
      allowedDomains: settings.allowedDomains,
      envAllowList: settings.envAllowList,
      userConfigDir: path.resolve(sources.configDir),
      home,
      ...(bwrapPath !== undefined ? { bwrapPath } : {}),
      ...(sources.readDeny !== undefined ? { readDeny: sources.readDeny } : {}),
      ...(settings.allowUnixSockets.length > 0 ? { allowUnixSockets: settings.allowUnixSockets } : {}),
      ...(runtimeDir && path.isAbsolute(runtimeDir) ? { runtimeDir: path.resolve(runtimeDir) } : {}),
      ...(Object.keys(socketEnv).length > 0 ? { openSocketEnv: socketEnv } : {}),
    },
    problems: settings.problems,
  };
}
