/** The OS sandbox for `run_command`: what the worker asks for and what it gets back. */
import type { HiddenPath } from './hidden-paths';
import type { SandboxProfile } from './read-only-profile';

export interface CommandSandboxConfig {
  /** Absolute, real path of the project: writable, and the command's working directory. */
  projectRoot: string;
  /** More writable roots granted with the project (absolute). */
  additionalDirectories: string[];
  /** Gatehouse's own config dir (settings, trust store): never readable from a command. */
  userConfigDir: string;
  /** The user's home directory, for the secret folders (`~/.ssh`, `~/.aws`...). */
  home: string;
  /** `sandbox.network.allowedDomains`: `example.com`, `*.example.com`, an IP literal; empty = no network. */
  allowedDomains: string[];
  /** Environment variables kept even though their names look secret. */
  envAllowList?: string[];
  /** The bubblewrap binary; found on PATH when absent. A path that does not work makes the sandbox unavailable. */
  bwrapPath?: string;
  /** macOS: the sandbox-exec binary; `/usr/bin/sandbox-exec` when absent. */
  sandboxExecPath?: string;
  /** The socat binary (only needed when a domain is allowed); found on PATH when absent. */
  socatPath?: string;
  /** Files and folders a `Read` deny rule denies (real paths, found by main): hidden inside the sandbox. */
  hiddenPaths?: HiddenPath[];
  /** The environment commands inherit (scrubbed); defaults to `process.env`. */
  baseEnv?: NodeJS.ProcessEnv;
  /** `sandbox.allowUnixSockets`: sockets the person opened into the sandbox (absolute paths; socket-doors.ts). */
  allowUnixSockets?: string[];
  /** The person's runtime folder ($XDG_RUNTIME_DIR as main knows it; the worker's environment does not carry it). */
  runtimeDir?: string;
  /** Variables of the person's environment that name an opened socket (SSH_AUTH_SOCK): set inside. */
  openSocketEnv?: Record<string, string>;
}

/** The argv to spawn (with node-pty or child_process) instead of `bash -c command`. */
export interface WrappedCommand {
  file: string;
  args: string[];
  /** The complete environment to spawn with (already scrubbed). */
  env: Record<string, string>;
  /** The working directory to spawn in (the project root). */
  cwd: string;
  /** Releases what was held for the command (placeholders): called once it ended. Safe to call more than once. */
  cleanup?(): Promise<void>;
}

export interface CommandSandbox {
  readonly kind: 'sandbox';
  /** bubblewrap on Linux, Seatbelt (`sandbox-exec`) on macOS. */
  readonly mechanism: 'bubblewrap' | 'seatbelt';
  /**
   * The argv for one command in the workspace profile (the project writable, network by the allow-list): the masks
   * and guards are computed from the folders as they are now.
   */
  wrap(command: string): Promise<WrappedCommand>;
  /** `wrap` for a program and its arguments, started without a shell (an MCP server): the same profile. */
  wrapArgv(argv: readonly string[]): Promise<WrappedCommand>;
  /**
   * The argv for one command in the read-only profile (read-only-profile.ts): nothing writable but a temp folder of
   * its own, no network. For a command that runs only because the engine judged it read-only.
   */
  wrapReadOnly(command: string): Promise<WrappedCommand>;
  /** The command outside the sandbox (environment still scrubbed): only for a call a person allowed once. */
  wrapUnsandboxed(command: string): WrappedCommand;
  /** A clear tool error when the output shows the sandbox (of that profile) blocked something, else null. */
  describeViolation(output: string, exitCode: number | null, profile?: SandboxProfile): string | null;
  dispose(): Promise<void>;
}

export interface SandboxUnavailable {
  readonly kind: 'unavailable';
  /** Why, in words for a persistent UI warning: "bubblewrap (bwrap) was not found on PATH". */
  readonly reason: string;
}

export function isSandboxAvailable(s: CommandSandbox | SandboxUnavailable): s is CommandSandbox {
  return s.kind === 'sandbox';
}
