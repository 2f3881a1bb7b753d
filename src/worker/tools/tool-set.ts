import { editFileTool } from './edit-file';
import { findFilesTool } from './find-files';
import { readFileTool } from './read-file';
import { Registry } from './registry';
import { findRipgrep } from './ripgrep';
import {
  createRunCommandTool,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_KILL_GRACE_MS,
  type CommandWrapper,
} from './run-command';
import { createSearchCodeTool } from './search-code';
import { DEFAULT_MAX_OUTPUT_CHARS } from './truncate';
import type { ToolRegistry } from './types';
import { writeFileTool } from './write-file';
import type { CommandShell } from '../../shared/node/command-shell';

export interface ToolRegistryOptions {
  /** Path to ripgrep; `null` forces the JS search; absent: the first `rg` on PATH, if any. */
  ripgrepPath?: string | null;
  /** Cap of every tool result's content (head and tail kept). Default 30,000 characters. */
  maxOutputChars?: number;
  /** run_command's timeout when the model gives none. Default 120 s. */
  defaultCommandTimeoutMs?: number;
  /** run_command: time between SIGTERM and SIGKILL of the process group. Default 2 s. */
  killGraceMs?: number;
  /** run_command runs inside this (e.g. the bubblewrap CommandSandbox of src/sandbox); absent: plain bash. */
  commandWrapper?: CommandWrapper;
  /** What runs a command (command-shell.ts); absent: bash. */
  commandShell?: CommandShell;
}

export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const ripgrepPath = options.ripgrepPath === undefined ? () => findRipgrep() : options.ripgrepPath;
  return new Registry(
    [
      readFileTool,
      findFilesTool,
      createSearchCodeTool(ripgrepPath),
      writeFileTool,
      editFileTool,
      createRunCommandTool({
        wrapper: options.commandWrapper,
        defaultTimeoutMs: options.defaultCommandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
        killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
        ...(options.commandShell ? { shell: options.commandShell } : {}),
      }),
    ],
    options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
  );
}
