/** The unsandboxed form of a command (sandbox unavailable or turned off): same shape, environment still scrubbed. */
import { commandArgv, POSIX_BASH, type CommandShell } from '../shared/node/command-shell';
import { scrubEnv } from './env-scrub';
import type { WrappedCommand } from './types';

export function directCommand(
  command: string,
  projectRoot: string,
  envAllowList: readonly string[] = [],
  baseEnv: NodeJS.ProcessEnv = process.env,
  shell: CommandShell = POSIX_BASH,
): WrappedCommand {
  return { ...commandArgv(shell, command), env: scrubEnv(baseEnv, envAllowList), cwd: projectRoot };
}

/**
 * A wrapper for run_command when there is no sandbox (unavailable, or turned off in settings): plain `bash -c` (on
 * Windows PowerShell when there is no Git Bash) in the project, but the environment still scrubbed. Same shape as a
 * CommandSandbox's `wrap`.
 */
export function unsandboxedWrapper(
  projectRoot: string,
  envAllowList: readonly string[] = [],
  baseEnv: NodeJS.ProcessEnv = process.env,
  shell: CommandShell = POSIX_BASH,
): {
  wrap(command: string): Promise<WrappedCommand>;
  wrapArgv(argv: readonly string[]): Promise<WrappedCommand>;
} {
  return {
    wrap: async (command) => directCommand(command, projectRoot, envAllowList, baseEnv, shell),
    wrapArgv: async (argv) => {
      if (argv.length === 0) throw new Error('no program to run');
      return { file: argv[0]!, args: argv.slice(1), env: scrubEnv(baseEnv, envAllowList), cwd: projectRoot };
    },
  };
}
