/**
 * How the worker confines `run_command` for a run: the bubblewrap sandbox (one per project and configuration,
 * cached for the worker's life), or, only when the user turned the sandbox off, plain `bash -c` with the
 * environment still scrubbed. A sandbox that is enabled but unavailable (always on Windows) also falls back to the
 * scrubbed direct form: main knows it (`sandbox.status`) and makes every command ask a person first. The status also
 * says which shell runs the commands (on Windows Git Bash or PowerShell): main's engine cannot read PowerShell.
 */
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxRunConfig, SandboxStatus } from '../shared/worker-protocol';
import { commandShell, type CommandShell } from '../shared/node/command-shell';
import { CommandSandboxCache } from '../sandbox/sandbox-cache';
import { unsandboxedWrapper } from '../sandbox/direct-command';
import type { CommandSandbox, CommandSandboxConfig, SandboxUnavailable, WrappedCommand } from '../sandbox/types';
import type { CommandWrapper } from './tools/run-command';

/** run_command's wrapper, which can also start a program and its arguments without a shell (an MCP server). */
type ConfinedWrapper = CommandWrapper & { wrapArgv(argv: readonly string[]): Promise<WrappedCommand> };

export interface Confinement {
  /** What run_command spawns through (and an MCP server, with `wrapArgv`). */
  wrapper: ConfinedWrapper;
  status: SandboxStatus;
  /** Real paths the file tools never write (the user config dir: settings, trust store). */
  protectedPaths: string[];
  /** What runs a command (bash; on Windows Git Bash or PowerShell): run_command tells the model. */
  shell: CommandShell;
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
  private shell: Promise<CommandShell> | null = null;

  /** `findShell`: this machine's (looked for on first use: on Windows that asks the registry). */
  constructor(
    sandboxes: CommandSandboxCache = new CommandSandboxCache(),
    private readonly findShell: () => Promise<CommandShell> = () => commandShell(),
  ) {
    this.sandboxes = sandboxes;
  }

  async resolve(
    projectRoot: string,
    additionalDirectories: string[],
    config: SandboxRunConfig = defaultSandboxConfig(),
  ): Promise<Confinement> {
    const protectedPaths = await withRealPath(config.userConfigDir);
    const shell = await (this.shell ??= this.findShell());
    const confined = await this.confine(projectRoot, additionalDirectories, config, shell);
    return { ...confined, status: { ...confined.status, shell: shell.kind }, protectedPaths, shell };
  }

  private async confine(
    projectRoot: string,
    additionalDirectories: string[],
    config: SandboxRunConfig,
    shell: CommandShell,
  ): Promise<Pick<Confinement, 'wrapper' | 'status'>> {
    if (!config.enabled) {
      return {
        wrapper: this.directWrapper(projectRoot, config.envAllowList, shell),
        status: {
          enabled: false,
          available: false,
          reason: 'the sandbox is turned off in your user settings (sandbox.enabled: false)',
        },
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
      };
    }
    if (sandbox.kind === 'sandbox') {
      return { wrapper: sandbox, status: { enabled: true, available: true, mechanism: sandbox.mechanism } };
    }
    return {
      wrapper: this.directWrapper(projectRoot, config.envAllowList, shell),
      status: { enabled: true, available: false, reason: sandbox.reason },
    };
  }

  async status(projectRoot: string, additionalDirectories: string[], config: SandboxRunConfig): Promise<SandboxStatus> {
    return (await this.resolve(projectRoot, additionalDirectories, config)).status;
  }

  async dispose(): Promise<void> {
    await this.sandboxes.disposeAll();
  }

  private directWrapper(projectRoot: string, envAllowList: readonly string[], shell: CommandShell): ConfinedWrapper {
    const key = JSON.stringify([projectRoot, [...envAllowList].sort()]);
    let wrapper = this.direct.get(key);
    if (wrapper === undefined) {
      wrapper = unsandboxedWrapper(projectRoot, envAllowList, process.env, shell);
      this.direct.set(key, wrapper);
    }
    return wrapper;
  }
}
