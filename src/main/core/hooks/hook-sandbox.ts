/**
 * Project and local hooks run inside the same OS sandbox as the agent's `run_command` (bubblewrap on Linux, Seatbelt
 * on macOS): writes confined to the project and temp, the project's `.gatehouse/`, `.claude/`, `.git/hooks` and
 * `.git/config` read-only, secrets unreadable, network only to the allowed domains. The sandbox library
 * (src/sandbox) is shared with the worker's `run_command`; main uses it here, and only here, to start
 * hook processes (never a model-directed tool).
 */
import type { CommandSandbox } from '../../../sandbox/types';
import { sandboxRunConfig } from '../sandbox/run-config';
import { HookRuntime, type HookRuntimeOptions, type SandboxedHookLauncher } from './hook-runtime';

export interface HookSandboxOptions {
  projectRoot: string;
  configDir: string;
  env: NodeJS.ProcessEnv;
}

export interface HookSandbox {
  launch: SandboxedHookLauncher;
  dispose(): Promise<void>;
}

/** A launcher that sets the sandbox up on first use (most sessions run no project hook) and reuses it. */
export function hookSandbox(options: HookSandboxOptions): HookSandbox {
  let created: Promise<CommandSandbox | { unavailable: string }> | null = null;
  const create = async (): Promise<CommandSandbox | { unavailable: string }> => {
    // Project hooks run only in a trusted project, so the project's own sandbox settings apply (as for commands).
    const { config } = await sandboxRunConfig({ ...options, projectTrusted: true });
    if (!config.enabled) return { unavailable: 'the OS sandbox is turned off, so project hooks do not run' };
    // Loaded on first use: the library (its network proxy, node:http) is most of a one-shot `permissions check`'s
    // start-up otherwise, and most checks run no project hook.
    const [{ createCommandSandbox }, { isSandboxAvailable }] = await Promise.all([
      import('../../../sandbox/command-sandbox'),
      import('../../../sandbox/types'),
    ]);
    const sandbox = await createCommandSandbox({
      projectRoot: options.projectRoot,
      additionalDirectories: [],
      userConfigDir: config.userConfigDir,
      home: config.home,
      allowedDomains: config.allowedDomains,
      envAllowList: config.envAllowList,
      ...(config.bwrapPath !== undefined ? { bwrapPath: config.bwrapPath } : {}),
      ...(config.allowUnixSockets ? { allowUnixSockets: config.allowUnixSockets } : {}),
      ...(config.runtimeDir ? { runtimeDir: config.runtimeDir } : {}),
      baseEnv: options.env,
    });
    if (!isSandboxAvailable(sandbox))
      return { unavailable: `project hooks run only inside the OS sandbox, which is unavailable: ${sandbox.reason}` };
    return sandbox;
  };
  return {
    launch: async (command) => {
      created ??= create();
      const sandbox = await created;
      if ('unavailable' in sandbox) return sandbox;
      const wrapped = await sandbox.wrap(command);
      return {
        file: wrapped.file,
        args: wrapped.args,
        env: { ...wrapped.env, CLAUDE_PROJECT_DIR: wrapped.cwd, GATEHOUSE_PROJECT_DIR: wrapped.cwd },
        cwd: wrapped.cwd,
        ...(wrapped.cleanup ? { cleanup: wrapped.cleanup } : {}),
      };
    },
    dispose: async () => {
      const sandbox = await created;
      if (sandbox && !('unavailable' in sandbox)) await sandbox.dispose();
    },
  };
}

/** A hook runtime for one project: user and policy hooks as the user, project hooks in the sandbox. */
export function projectHookRuntime(
  options: HookSandboxOptions & Omit<HookRuntimeOptions, 'sandboxed' | 'projectRoot' | 'env'>,
): { runtime: HookRuntime; dispose(): Promise<void> } {
  const sandbox = hookSandbox(options);
  const runtime = new HookRuntime({
    projectRoot: options.projectRoot,
    env: options.env,
    sessionId: options.sessionId,
    ...(options.transcriptPath !== undefined ? { transcriptPath: options.transcriptPath } : {}),
    ...(options.audit !== undefined ? { audit: options.audit } : {}),
    sandboxed: sandbox.launch,
  });
  return { runtime, dispose: () => sandbox.dispose() };
}
