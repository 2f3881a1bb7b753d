/**
 * One sandbox per distinct configuration, created on first use and reused by every later command (the worker
 * serves runs for a project again and again; setting up the proxy and the probe costs more than a command).
 */
import { createCommandSandbox } from './command-sandbox';
import type { CommandSandbox, CommandSandboxConfig, SandboxUnavailable } from './types';

type Created = CommandSandbox | SandboxUnavailable;

const DEFAULT_MAX_KEPT = 4;

function keyOf(config: CommandSandboxConfig): string {
  return JSON.stringify([
    config.projectRoot,
    [...config.additionalDirectories].sort(),
    config.userConfigDir,
    config.home,
    [...config.allowedDomains].sort(),
    [...(config.envAllowList ?? [])].sort(),
    config.bwrapPath ?? null,
    config.socatPath ?? null,
    config.sandboxExecPath ?? null,
    (config.hiddenPaths ?? []).map((h) => [h.path, h.rule]).sort(),
    [...(config.allowUnixSockets ?? [])].sort(),
    config.runtimeDir ?? null,
    Object.entries(config.openSocketEnv ?? {}).sort(),
  ]);
}

export class CommandSandboxCache {
  private readonly entries = new Map<string, Promise<Created>>();

  constructor(
    private readonly create: (config: CommandSandboxConfig) => Promise<Created> = createCommandSandbox,
    private readonly maxKept = DEFAULT_MAX_KEPT,
  ) {}

  /** The sandbox for this configuration (an unavailable result is cached too: the reason does not change). */
  get(config: CommandSandboxConfig): Promise<Created> {
    const key = keyOf(config);
    const existing = this.entries.get(key);
    if (existing !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, existing); // most recently used last
      return existing;
    }
    const created = this.create(config);
    this.entries.set(key, created);
    while (this.entries.size > this.maxKept) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      void this.disposeEntry(oldest);
    }
    return created;
  }

  async disposeAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((k) => this.disposeEntry(k)));
  }

  private async disposeEntry(key: string): Promise<void> {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    const s = await entry;
    if (s?.kind === 'sandbox') await s.dispose();
  }
}
