import { RunCommandInput } from '../../shared/tools';
import * as pty from 'node-pty';
import { commandArgv, POSIX_BASH, windowsCommandLine, type CommandShell } from '../../shared/node/command-shell';
import { terminateGroup, groupAlive, treeEnderFor, type TreeEnder } from './process-group';
import { EndMarkerFilter, newEndMarker, WRAPPER_SCRIPT } from './pty-sentinel';
import type { WrappedCommand } from '../../sandbox/types';
import { LiveOutput } from './terminal-output';
import { defineTool, ToolError, type RegisteredTool, type ToolRunContext } from './tool';
import { truncateHeadTail } from './truncate';
import type { ToolResult } from './types';

/**
 * Runs each command inside something else (the OS sandbox of src/sandbox: its CommandSandbox fits this
 * shape): `wrap` gives the argv, environment and folder to spawn instead of `bash -c COMMAND`.
 */
export interface CommandWrapper {
  wrap(command: string): Promise<WrappedCommand>;
  /**
   * The same command outside the sandbox (environment still scrubbed), for a call main allowed with
   * `unsandboxed: true` (a person's "allow once"). Absent: the wrapper confines nothing anyway, `wrap` is used.
   */
  wrapUnsandboxed?(command: string): WrappedCommand;
  /**
   * The same command in the sandbox's read-only profile, for a call main allowed only as read-only (`sandbox:
   * 'read-only'`). Absent: the wrapper confines nothing (the sandbox is turned off or unavailable, which main knows
   * and names), `wrap` is used.
   */
  wrapReadOnly?(command: string): Promise<WrappedCommand>;
  /** A message for the model when the output shows the wrapper (in that profile) blocked something, else null. */
  describeViolation?(output: string, exitCode: number | null, profile?: 'read-only' | 'workspace'): string | null;
}

export interface RunCommandOptions {
  /** Absent: plain `bash -c` with the worker's environment. */
  wrapper?: CommandWrapper | undefined;
  /** When the model gives no `timeout_ms`. */
  defaultTimeoutMs: number;
  /** Time between SIGTERM and SIGKILL when a command is killed. */
  killGraceMs: number;
  /** What runs the command (command-shell.ts): bash, or on Windows Git Bash or PowerShell. Absent: `bash`. */
  shell?: CommandShell;
  /** Ends a command's process tree on cancel and timeout. Absent: this platform's (process-group.ts). */
  endTree?: TreeEnder;
}

/** Told to the model with every sandbox violation: the one explicit way out, and what it costs. */
export const UNSANDBOXED_HINT =
  'If the task truly needs this, you may call run_command again with "unsandboxed": true: a person must approve ' +
  'that exact command, once, and it then runs outside the sandbox (not available in bypass mode). Prefer a way ' +
  'that works inside the sandbox.';

export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
export const DEFAULT_KILL_GRACE_MS = 2_000;
/** The terminal a command runs in (and its output is rendered in). */
const COLS = 160;
const ROWS = 50;
/** Room in the model's copy for the exit line and a sandbox note (up to three violations with their paths). */
const FOOTER_ROOM = 2_000;

type Ending =
  | { kind: 'exit'; exitCode: number; signal: number }
  | { kind: 'timeout' | 'cancel'; failure: string | null };

function workerEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

function footerFor(ending: Ending, timeoutMs: number): string {
  const failed = ending.kind !== 'exit' && ending.failure !== null ? `\n[${ending.failure}]` : '';
  switch (ending.kind) {
    case 'timeout':
      return `[killed after timeout ${timeoutMs} ms]${failed}`;
    case 'cancel':
      return `[cancelled]${failed}`;
    case 'exit':
      return ending.signal !== 0 ? `[terminated by signal ${ending.signal}]` : `[exit code ${ending.exitCode}]`;
  }
}

/**
 * Git Bash on Windows: the command's stdin from /dev/null as on Linux, but no end marker. The lost tail the marker works
 * around is Linux's pty; on Windows node-pty reports the exit once ConPTY's output drained, and ConPTY redraws the
 * screen rather than passing bytes through, so a marker line could come back split by cursor sequences. `exec` keeps
 * the command's own exit code as the process's.
 */
const WINDOWS_BASH_WRAPPER = 'exec "$@" </dev/null';

/**
 * What the pty starts. Linux and macOS: bash runs the command under the end-marker wrapper of pty-sentinel.ts.
 * Windows: Git Bash under the wrapper above (the command's own `bash` is then Git Bash's too), or PowerShell itself;
 * the arguments go to node-pty as one command line quoted here, every argument in quotes. PowerShell's exit code is
 * its own: 0, or 1 when its last statement failed.
 */
export function ptyLaunch(
  shell: CommandShell,
  marker: string,
  spec: { file: string; args: string[] },
): { file: string; args: string[] | string } {
  if (!shell.windows)
    return { file: shell.path, args: ['-c', WRAPPER_SCRIPT, 'gatehouse', marker, spec.file, ...spec.args] };
  if (shell.kind === 'powershell') return { file: spec.file, args: windowsCommandLine(spec.args) };
  return {
    file: shell.path,
    args: windowsCommandLine(['-c', WINDOWS_BASH_WRAPPER, 'gatehouse', spec.file, ...spec.args]),
  };
}

/**
 * Runs `bash -c COMMAND` (stdin from /dev/null; on Windows Git Bash's, or PowerShell) in a pty in the project root,
 * under the wrapper `ptyLaunch` picks; the whole process tree dies on timeout or cancel (`opts.endTree`). The output streams to the card as it comes
 * and is rendered in a headless terminal of the pty's size (terminal-render.ts): the model and the card get that
 * rendering once the command ended.
 */
export async function runInPty(
  command: string,
  timeoutMs: number,
  opts: RunCommandOptions,
  ctx: ToolRunContext,
  unsandboxed = false,
): Promise<ToolResult> {
  const graceMs = opts.killGraceMs;
  const marker = newEndMarker();
  const filter = new EndMarkerFilter(marker);
  const wrapper = opts.wrapper;
  const profile = ctx.sandbox === 'read-only' ? 'read-only' : 'workspace';
  const wrapped =
    wrapper === undefined
      ? undefined
      : unsandboxed && wrapper.wrapUnsandboxed
        ? wrapper.wrapUnsandboxed(command)
        : profile === 'read-only' && wrapper.wrapReadOnly
          ? await wrapper.wrapReadOnly(command)
          : await wrapper.wrap(command);
  const shell = opts.shell ?? POSIX_BASH;
  const endTree = opts.endTree ?? treeEnderFor();
  const spawnSpec = wrapped ?? { ...commandArgv(shell, command), env: workerEnv(), cwd: ctx.projectRoot };
  const launch = ptyLaunch(shell, marker, spawnSpec);
  // The emulator loads with the first command, not at the worker's start.
  const { TerminalRenderer } = await import('./terminal-render');
  let term: pty.IPty;
  try {
    term = pty.spawn(launch.file, launch.args, {
      name: 'xterm-256color',
      cols: COLS,
      rows: ROWS,
      cwd: spawnSpec.cwd,
      env: spawnSpec.env,
    });
  } catch (err) {
    await spawnSpec.cleanup?.().catch(() => undefined);
    throw new ToolError(`could not start the command: ${err instanceof Error ? err.message : String(err)}`);
  }
  // The pty's child: on Linux and macOS a session leader, whose pid is the group id; on Windows the tree's root.
  const pgid = term.pid;
  const started = term;
  // While the terminal is behind, the pty is not read: the command waits on its writes instead of filling memory.
  const renderer = new TerminalRenderer({
    cols: COLS,
    rows: ROWS,
    maxChars: Math.max(1_000, ctx.maxOutputChars - FOOTER_ROOM),
    onPressure: (pause) => (pause ? started.pause() : started.resume()),
  });
  const live = new LiveOutput((chunk) => ctx.onOutput?.(chunk));
  return new Promise((resolve) => {
    let killing: { kind: 'timeout' | 'cancel'; done: Promise<string | null> } | null = null;
    const kill = (kind: 'timeout' | 'cancel'): void => {
      if (killing !== null) return;
      const done = endTree(pgid, graceMs).then((failure) => {
        // The tree could not be ended (taskkill refused): the pty's own kill ends what is on its console, at least.
        if (failure !== null) closePty(started);
        return failure;
      });
      killing = { kind, done };
    };
    const timer = setTimeout(() => kill('timeout'), timeoutMs);
    const onAbort = (): void => kill('cancel');
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    const emit = (output: string): void => {
      if (output === '') return;
      renderer.write(output);
      live.push(output);
    };
    term.onData((chunk) => {
      const hadCode = filter.exitCode !== null;
      emit(filter.push(chunk));
      if (!hadCode && filter.exitCode !== null) {
        try {
          term.write('\n'); // everything arrived: let the wrapper exit
        } catch {
          // the wrapper is gone already
        }
      }
    });
    term.onExit(({ exitCode, signal }) => {
      emit(filter.flush());
      // Cleanup is best effort; the result waits for it, so the next command finds none of this one's placeholders.
      const released = spawnSpec.cleanup?.().catch(() => undefined) ?? Promise.resolve();
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      const finish = async (ending: Ending): Promise<void> => {
        const footer = footerFor(ending, timeoutMs);
        const rendered = await renderer.finish().catch((err: unknown) => ({
          text: `(the output could not be rendered: ${err instanceof Error ? err.message : String(err)})`,
          terminal: '',
        }));
        renderer.dispose();
        const output = rendered.text.replace(/\n+$/, '');
        const body = truncateHeadTail(
          output === '' ? '(no output)' : output,
          Math.max(200, ctx.maxOutputChars - footer.length - 1),
        );
        const code = ending.kind === 'exit' && ending.signal === 0 ? ending.exitCode : null;
        const violation = unsandboxed ? null : (opts.wrapper?.describeViolation?.(output, code, profile) ?? null);
        const note = violation === null ? '' : `\n${violation}\n${UNSANDBOXED_HINT}`;
        resolve({
          content: `${body}\n${footer}${note}`,
          isError: code === null || violation !== null,
          exitCode: code,
          ...(rendered.terminal === '' ? {} : { terminal: rendered.terminal }),
        });
      };
      if (killing !== null) {
        const { kind, done } = killing;
        void Promise.all([done, released]).then(([failure]) => finish({ kind, failure }));
        return;
      }
      // Background jobs left behind by a finished command are not kept running: on Linux and macOS its group; on
      // Windows what is still on its console goes with the pseudo console (which is released with it).
      if (shell.windows) closePty(started);
      else if (groupAlive(pgid)) void terminateGroup(pgid, graceMs);
      const ending: Ending = {
        kind: 'exit',
        exitCode: filter.exitCode ?? exitCode,
        signal: filter.exitCode === null ? (signal ?? 0) : 0,
      };
      void released.then(() => finish(ending));
    });
  });
}

/** node-pty's own kill: on Windows it ends the processes on the pty's console and closes the pseudo console. */
function closePty(term: pty.IPty): void {
  try {
    term.kill();
  } catch {
    // already gone
  }
}

/** What the model is told about where a command runs. */
function runsIn(shell: CommandShell, defaultTimeoutMs: number): string {
  const where =
    shell.kind === 'powershell'
      ? 'Run a PowerShell command in the project root (no Git Bash was found, so commands run in PowerShell, in a terminal).'
      : `Run a bash command in the project root (bash -c${shell.windows ? ", Git for Windows' bash" : ''}, in a terminal).`;
  const sandbox = shell.windows
    ? 'Windows has no command sandbox: commands run unconfined, each approved by a person unless they turned the sandbox off.'
    : 'Commands run in an OS sandbox (writes only in the project, no secrets, network only to allowed domains); set ' +
      'unsandboxed: true only for one command the sandbox blocked that the task truly needs: a person must approve it.';
  return `${where} Returns the output (stdout and stderr together) and the exit code. Killed after timeout_ms (default ${defaultTimeoutMs} ms). Interactive commands get no input: pass flags that make them non-interactive. ${sandbox}`;
}

export function createRunCommandTool(opts: RunCommandOptions): RegisteredTool {
  return defineTool({
    name: 'run_command',
    input: RunCommandInput,
    description: runsIn(opts.shell ?? POSIX_BASH, opts.defaultTimeoutMs),
    timeoutMs: (input) => (input.timeout_ms ?? opts.defaultTimeoutMs) + opts.killGraceMs + 5_000,
    run: (input, ctx) =>
      runInPty(input.command, input.timeout_ms ?? opts.defaultTimeoutMs, opts, ctx, input.unsandboxed === true),
  });
}
