/**
 * How a stdio MCP server starts: inside the OS sandbox that confines run_command (the project's sandbox settings,
 * the `Read` deny masks, the secret folders hidden), with network only to the entry's `allowedDomains` through the
 * sandbox's domain proxy, and an environment of basics only (PATH, HOME, locale...) plus the variables the entry
 * names (`envAllowList`) and sets (`env`). When the sandbox is enabled but does not work here, the server does not
 * start (the reason is its status); only a person's own `sandbox.enabled: false` runs it unsandboxed.
 */
import type { ActiveMcpServer } from '../../shared/mcp-contract';
import { isHttpEntry } from '../../shared/mcp-contract';
import type { SandboxRunConfig } from '../../shared/worker-protocol';
import { CommandConfinement } from '../command-confinement';
import { CommandSandboxCache } from '../../sandbox/sandbox-cache';
import { type WrappedCommand } from '../../sandbox/types';
import { BASIC_ENV_NAMES, WINDOWS_ENV_NAMES } from '../../shared/basic-env';

/** Variables every server gets (when set): what a program needs to run, nothing that identifies a secret. */
const BASIC_ENV = new Set([
  ...BASIC_ENV_NAMES,
  ...(process.platform === 'win32' ? WINDOWS_ENV_NAMES : []),
  'LANGUAGE',
  'XDG_CACHE_HOME',
  'npm_config_cache',
  'GATEHOUSE_SANDBOX',
  'NODE_USE_ENV_PROXY',
]);
const PROXY_ENV = /^(https?|all|no)_proxy$/i;

export function serverEnv(wrapped: Record<string, string>, server: ActiveMcpServer): Record<string, string> {
  if (isHttpEntry(server.entry)) return {};
  const named = new Set((server.entry.envAllowList ?? []).map((n) => n.toUpperCase()));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(wrapped)) {
    if (BASIC_ENV.has(name) || name.startsWith('LC_') || PROXY_ENV.test(name) || named.has(name.toUpperCase()))
      env[name] = value;
  }
  return { ...env, ...(server.entry.env ?? {}) };
}

/** One run's stdio servers' sandboxes (one per distinct allowedDomains / envAllowList), removed with the run. */
export class McpSandboxes {
  private readonly confinement = new CommandConfinement(new CommandSandboxCache(undefined, 64));

  constructor(
    private readonly projectRoot: string,
    private readonly additionalDirectories: string[],
    private readonly config: SandboxRunConfig,
  ) {}

  async spawnSpec(server: ActiveMcpServer): Promise<WrappedCommand> {
    if (isHttpEntry(server.entry)) throw new Error('an http server is not spawned');
    const confined = await this.confinement.resolve(this.projectRoot, this.additionalDirectories, {
      ...this.config,
      allowedDomains: server.entry.allowedDomains ?? [],
      envAllowList: server.entry.envAllowList ?? [],
    });
    if (confined.status.enabled && !confined.status.available)
      throw new Error(
        `the OS sandbox is not available (${confined.status.reason ?? 'unknown reason'}): a stdio MCP server runs only inside it (or with sandbox.enabled: false in your user settings)`,
      );
    // The program itself, no shell: a shell's start-up files (a ~/.bashrc read because stdin is a socket) would
    // print their noise into the server's error output, and the entry gives the program and its arguments anyway.
    const wrapped = await confined.wrapper.wrapArgv([server.entry.command, ...(server.entry.args ?? [])]);
    return {
      file: wrapped.file,
      args: wrapped.args,
      env: serverEnv(wrapped.env, server),
      cwd: wrapped.cwd,
      ...(wrapped.cleanup ? { cleanup: wrapped.cleanup } : {}),
    };
  }

  dispose(): Promise<void> {
    return this.confinement.dispose();
  }
}
