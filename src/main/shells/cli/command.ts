/**
 * One option of a subcommand: what the parser accepts (`type`, `multiple`, `choices`) and what `--help` says about
 * it (`value`, `help`), in one table, so the help can never list an option the parser refuses or miss one it takes.
 */
export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** The value's name in the help (`DIR`, `N`, `RULE`); default: the choices, or VALUE. */
  value?: string;
  /** The only values it takes: any other is a usage error that suggests the nearest. */
  choices?: readonly string[];
  /** With `choices`: one value may list several, comma-separated (`--without rules,hooks`). */
  commaList?: boolean;
  /** One line for `--help`. */
  help: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** What `gatehouse <command> --help` prints (src/main/shells/cli/help-text.ts), next to the options the parser takes. */
export interface CommandHelp {
  /** What the command is for, in a sentence or three. */
  description: string;
  /** Each form of the command: the words after `gatehouse <name>` and what that form does. */
  forms: readonly { usage: string; does: string }[];
  /** Every option any form takes. */
  options: OptionSpecs;
  /** At least two whole command lines a person can copy, each with what it does. */
  examples: readonly { command: string; does: string }[];
}

/** A CLI subcommand. `run` returns the exit code: 0 ok, 1 failure, 2 bad arguments. */
export interface CliCommand {
  name: string;
  help: CommandHelp;
  run(args: string[], io: CliIO): Promise<number>;
}

/** A subcommand as the dispatcher lists it: its code is loaded only when it runs (`gatehouse --version` loads none). */
export interface CommandEntry {
  name: string;
  summary: string;
  /** Runs in a long-lived process (keeps V8's optimising tier for the bash grammar's WebAssembly). */
  longLived?: boolean;
  /** Judges shell commands: the bash grammar starts loading as the process starts (see src/main/shells/cli/index.ts). */
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
