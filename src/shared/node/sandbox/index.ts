/** The OS sandbox for commands (bubblewrap on Linux): the worker's `run_command` spawns `wrap(command)`. */
export { createCommandSandbox } from './command-sandbox';
export { directCommand, unsandboxedWrapper } from './direct-command';
export { scrubEnv, looksSecret } from './env-scrub';
export { measureSandboxOverhead, type SandboxOverhead } from './overhead';
export { protectedReadPaths } from './protected-paths';
export { CommandSandboxCache } from './sandbox-cache';
export {
  isSandboxAvailable,
  type CommandSandbox,
  type CommandSandboxConfig,
  type SandboxUnavailable,
  type WrappedCommand,
} from './types';
