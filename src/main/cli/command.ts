/** A CLI subcommand. `run` returns the exit code: 0 ok, 1 failure, 2 bad arguments. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
}

export interface CliIO {
  out(line: string): void;
  err(line: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
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
