/** A CLI subcommand. `run` returns the exit code: 0 ok, 1 failure, 2 bad arguments. */
export interface CliCommand {
  name: string;
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
}

/** A subcommand as the dispatcher lists it: its code is loaded only when it runs (`gatehouse --version` loads none). */
export interface CommandEntry {
  name: string;
  summary: string;
  /** Runs in a long-lived process (keeps V8's optimising tier for the bash grammar's WebAssembly). */
  longLived?: boolean;
  /** Judges shell commands: the bash grammar starts loading as the process starts (see src/main/cli/index.ts). */
  parsesShell?: boolean;
  load(): Promise<CliCommand>;
}

export interface CliIO {
  out(line: string): void;
  err(line: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The command's stdin as text, read whole (default: the process's stdin); the decision helper gives its client's. */
  stdin?: () => Promise<string>;
  /** The calling process's id, where it names a session (default: this process's; the helper's client's). */
  pid?: number;
  /** Runs `fn` once when stdout's reader went away (EPIPE); returns a function that removes it. */
  onOutputClosed?(fn: () => void): () => void;
}

/** Thrown for bad arguments: printed with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
