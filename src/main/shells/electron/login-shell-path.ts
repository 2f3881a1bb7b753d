import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

// An app started from the Finder, the Dock or a Linux desktop launcher gets the session's bare PATH, without what
// the user's shell profile adds (Homebrew, nvm, ~/.local/bin...): `npm`, `node` and friends would be missing for
// the agent's commands. Like VS Code, ask the user's login shell once at start-up, with a time limit. Only PATH is
// taken: nothing else of the profile's environment (an API key exported there, for instance) is read or used.

const LOGIN_SHELL_TIMEOUT_MS = 10_000;
const MAX_OUTPUT = 256 * 1024;
const MAX_PATH_LENGTH = 32 * 1024;

/**
 * Whether this launch should ask the login shell: macOS and Linux only, and not when started from a terminal
 * (`TERM` set: its environment already is the shell's), nor when GATEHOUSE_LOGIN_SHELL_PATH=0.
 */
export function needsLoginShellPath(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform !== 'darwin' && platform !== 'linux') return false;
  if (env.GATEHOUSE_LOGIN_SHELL_PATH === '0') return false;
  return !env.TERM;
}

/** The login shell's arguments: csh and tcsh take `-ic` (no `-l` with `-c`); sh, bash, zsh, fish take `-i -l -c`. */
export function loginShellArgs(shell: string, command: string): string[] {
  const name = path.basename(shell);
  return name === 'csh' || name === 'tcsh' ? ['-ic', command] : ['-i', '-l', '-c', command];
}

export type LoginShellPath = { path: string } | { error: string };

export interface LoginShellOptions {
  /** The user's shell (`$SHELL`), an absolute path. */
  shell: string | undefined;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/**
 * Runs `$SHELL -i -l -c` printing `$PATH` between two random markers (so a profile's banner or motd is ignored),
 * in its own process group (killed whole on timeout), with stdin closed. Resolves with the PATH, or with why not.
 */
export function readLoginShellPath(o: LoginShellOptions): Promise<LoginShellPath> {
  const shell = o.shell;
  if (!shell || !path.isAbsolute(shell))
    return Promise.resolve({
      error: `no usable login shell (SHELL is ${shell ? `"${shell.slice(0, 100)}"` : 'not set'})`,
    });
  const timeoutMs = o.timeoutMs ?? LOGIN_SHELL_TIMEOUT_MS;
  const mark = `__GATEHOUSE_${randomBytes(8).toString('hex')}__`;
  const command = `printf '%s%s%s' '${mark}' "$PATH" '${mark}'`;
  return new Promise((resolve) => {
    let out = '';
    let settled = false;
    const finish = (result: LoginShellPath): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const parse = (): LoginShellPath | null => {
      const found = out.split(mark);
      if (found.length < 3) return null;
      const value = found[1]!;
      const entries = value.split(':').filter((e) => path.isAbsolute(e));
      if (value.length > MAX_PATH_LENGTH || /[\0\n\r]/.test(value) || entries.length === 0)
        return { error: `${shell} printed an unusable PATH` };
      return { path: entries.join(':') };
    };
    const child = spawn(shell, loginShellArgs(shell, command), {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
      // A profile can skip slow parts when it sees this (as it can VS Code's VSCODE_RESOLVING_ENVIRONMENT).
      env: { ...o.env, GATEHOUSE_RESOLVING_ENVIRONMENT: '1' },
    });
    // Bounded whatever the shell does (hangs, or leaves a background process holding its output open): the shell's
    // whole process group is killed and the launch goes on with the PATH it has.
    const timer = setTimeout(() => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      finish({ error: `${shell} did not answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (out.length < MAX_OUTPUT) out += chunk;
      const result = parse();
      if (result) finish(result);
    });
    child.on('error', (err) => finish({ error: `${shell}: ${err.message}` }));
    child.on('close', (code, signal) =>
      finish(parse() ?? { error: `${shell} printed no PATH (exit ${code ?? signal})` }),
    );
  });
}

/**
 * The PATH to use: the login shell's entries first, then any of the current PATH's entries it lacks (nothing the
 * launch had is lost).
 */
export function mergePath(loginPath: string, currentPath: string | undefined): string {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const entry of [...loginPath.split(':'), ...(currentPath ?? '').split(':')]) {
    if (!entry || seen.has(entry)) continue;
    seen.add(entry);
    merged.push(entry);
  }
  return merged.join(':');
}

/** One login-shell PATH per process: asked once, the answer (or the failure) kept. */
export class LoginShellPathCache {
  private pending: Promise<LoginShellPath> | null = null;
  constructor(private readonly options: LoginShellOptions) {}

  get(): Promise<LoginShellPath> {
    this.pending ??= readLoginShellPath(this.options);
    return this.pending;
  }
}
