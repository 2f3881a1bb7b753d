/**
 * What a command string is run with: `bash -c` on Linux and macOS; on Windows the shell windows-shell.ts finds (Git
 * Bash, else PowerShell). The worker runs the agent's commands with it, main the person's own hooks.
 */
import { findWindowsShell, machineShellFinderDeps, type CommandShell } from './windows-shell';

export type { CommandShell } from './windows-shell';

/** Linux and macOS: the first `bash` on PATH, as commands always ran. */
export const POSIX_BASH: CommandShell = { kind: 'bash', path: 'bash', windows: false, how: 'PATH', problems: [] };

let found: Promise<CommandShell> | null = null;

/** This machine's shell, looked for once per process (on Windows the registry is asked; that takes a moment). */
export function commandShell(platform: NodeJS.Platform = process.platform): Promise<CommandShell> {
  if (platform !== 'win32') return Promise.resolve(POSIX_BASH);
  found ??= findWindowsShell(machineShellFinderDeps());
  return found;
}

/**
 * PowerShell's arguments for one command: no profile (a person's profile is code the approval did not show), no
 * prompt for input, and the command as `-EncodedCommand` (base64 of UTF-16LE), which no quoting rule of any layer
 * between here and PowerShell can change. The machine's execution policy stays as the person set it.
 */
export function powerShellArgs(command: string): string[] {
  return [
    '-NoLogo',
    '-NoProfile',
    '-NonInteractive',
    '-EncodedCommand',
    Buffer.from(command, 'utf16le').toString('base64'),
  ];
}

/** The program and arguments that run `command` in `shell` (a hook; run_command adds its end-marker wrapper). */
export function shellArgv(shell: CommandShell, command: string): { file: string; args: string[] } {
  if (shell.kind === 'powershell') return { file: shell.path, args: powerShellArgs(command) };
  return { file: shell.path, args: ['-c', command] };
}

/**
 * One argument quoted for a Windows command line (the rules of CommandLineToArgvW and the C runtime, which Git
 * Bash's runtime follows too): always in double quotes (so Git Bash never expands a `*` in it), a quote as `\"`, and
 * backslashes doubled only where they precede a quote.
 */
export function quoteWindowsArg(arg: string): string {
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes++;
      continue;
    }
    out += ch === '"' ? `${'\\'.repeat(backslashes * 2 + 1)}"` : `${'\\'.repeat(backslashes)}${ch}`;
    backslashes = 0;
  }
  return `${out}${'\\'.repeat(backslashes * 2)}"`;
}

/** Arguments as one Windows command line (without the program: node-pty puts it first). */
export function windowsCommandLine(args: readonly string[]): string {
  return args.map(quoteWindowsArg).join(' ');
}

/**
 * The argv run_command's wrapper runs for a command: `bash -c` (resolved by the wrapper's own bash: on Windows Git
 * Bash's, never a Windows path its runtime would rewrite the arguments for), or PowerShell's.
 */
export function commandArgv(shell: CommandShell, command: string): { file: string; args: string[] } {
  return shell.kind === 'powershell' ? shellArgv(shell, command) : { file: 'bash', args: ['-c', command] };
}
