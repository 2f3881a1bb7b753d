/**
 * How the worker confines `run_command` for a run: the bubblewrap sandbox (one per project and configuration,
 * cached for the worker's life), or, only when the user turned the sandbox off, plain `bash -c` with the
 * environment still scrubbed. A sandbox that is enabled but unavailable also falls back to the scrubbed direct
 * form: main knows it (`sandbox.status`) and makes every command ask a person first.
 */
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxRunConfig, SandboxStatus } from '../shared/worker-protocol';
import { CommandSandboxCache, unsandboxedWrapper } from '../shared/node/sandbox';
import type { CommandSandbox, CommandSandboxConfig, SandboxUnavailable, WrappedCommand } from '../shared/node/sandbox';
import type { CommandWrapper } from './tools/index';

/** run_command's wrapper, which can also start a program and its arguments without a shell (an MCP server). */
type ConfinedWrapper = CommandWrapper & { wrapArgv(argv: readonly string[]): Promise<WrappedCommand> };

export interface Confinement {
  /** What run_command spawns through (and an MCP server, with `wrapArgv`). */
  wrapper: ConfinedWrapper;
  status: SandboxStatus;
  /** Real paths the file tools never write (the user config dir: settings, trust store). */
  protectedPaths: string[];
}

/** The fail-safe configuration when main sent none: sandbox on, no network, nothing extra kept in the env. */
export function defaultSandboxConfig(env: NodeJS.ProcessEnv = process.env): SandboxRunConfig {
  const home = env.HOME || os.homedir();
  const configDir = env.GATEHOUSE_HOME?.trim()
    ? path.resolve(env.GATEHOUSE_HOME)
    : path.join(home, '.config', 'gatehouse');
  return { enabled: true, allowedDomains: [], envAllowList: [], userConfigDir: configDir, home };
}

/** The sockets the person opened, and where their runtime folder is (socket-doors.ts). */
function socketOptions(
  config: SandboxRunConfig,
): Pick<CommandSandboxConfig, 'allowUnixSockets' | 'runtimeDir' | 'openSocketEnv'> {
  return {
    ...(config.allowUnixSockets ? { allowUnixSockets: config.allowUnixSockets } : {}),
    ...(config.runtimeDir ? { runtimeDir: config.runtimeDir } : {}),
    ...(config.openSocketEnv ? { openSocketEnv: config.openSocketEnv } : {}),
  };
}

/** The path and, when it exists under another name (symlinks), its real path. */
async function withRealPath(p: string): Promise<string[]> {
  const abs = path.resolve(p);
  try {
    const real = await fsp.realpath(abs);
    return real === abs ? [abs] : [abs, real];
  } catch {
    return [abs];
  }
}

export class CommandConfinement {
  private readonly sandboxes: CommandSandboxCache;
  private readonly direct = new Map<string, ConfinedWrapper>();

  constructor(sandboxes: CommandSandboxCache = new CommandSandboxCache()) {
    this.sandboxes = sandboxes;
  }

  async resolve(
    projectRoot: string,
    additionalDirectories: string[],
    config: SandboxRunConfig = defaultSandboxConfig(),
  ): Promise<Confinement> {
    const protectedPaths = await withRealPath(config.userConfigDir);
    if (!config.enabled) {
      return {
        wrapper: this.directWrapper(projectRoot, config.envAllowList),
        status: {
          enabled: false,
          available: false,
          reason: 'the sandbox is turned off in your user settings (sandbox.enabled: false)',
        },
        protectedPaths,
      };
    }
    let sandbox: CommandSandbox | SandboxUnavailable;
    try {
      sandbox = await this.sandboxes.get({
        projectRoot,
        additionalDirectories,
        userConfigDir: config.userConfigDir,
        home: config.home,
        allowedDomains: config.allowedDomains,
        envAllowList: config.envAllowList,
        hiddenPaths: config.readDeny?.hidden ?? [],
        ...(config.bwrapPath !== undefined ? { bwrapPath: config.bwrapPath } : {}),
        ...socketOptions(config),
      });
    } catch (err) {
      sandbox = {
        kind: 'unavailable',
        reason: `the sandbox could not be set up: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    const incomplete = config.readDeny?.incomplete;
    if (sandbox.kind === 'sandbox' && incomplete !== undefined) {
      // Main could not list every file a Read deny rule denies: every command asks (status unavailable), and one a
      // person lets through still runs in the sandbox with what was found.
      return {
        wrapper: sandbox,
        status: { enabled: true, available: false, reason: incomplete, mechanism: sandbox.mechanism },
        protectedPaths,
      };
    }
    if (sandbox.kind === 'sandbox') {
      return {
        wrapper: sandbox,
        status: { enabled: true, available: true, mechanism: sandbox.mechanism },
        protectedPaths,
      };
    }
    return {
      wrapper: this.directWrapper(projectRoot, config.envAllowList),
      status: { enabled: true, available: false, reason: sandbox.reason },
      protectedPaths,
    };
  }

  async status(projectRoot: string, additionalDirectories: string[], config: SandboxRunConfig): Promise<SandboxStatus> {
    return (await this.resolve(projectRoot, additionalDirectories, config)).status;
  }

  async dispose(): Promise<void> {
    await this.sandboxes.disposeAll();
  }

  private directWrapper(projectRoot: string, envAllowList: readonly string[]): ConfinedWrapper {
    const key = JSON.stringify([projectRoot, [...envAllowList].sort()]);
    let wrapper = this.direct.get(key);
    if (wrapper === undefined) {
      wrapper = unsandboxedWrapper(projectRoot, envAllowList);
      this.direct.set(key, wrapper);
    }
    return wrapper;
  }
}
