import { RunCommandInput } from '../../shared/tools';
import * as pty from 'node-pty';
import { terminateGroup, groupAlive } from './process-group';
import { EndMarkerFilter, newEndMarker, WRAPPER_SCRIPT } from './pty-sentinel';
import { LiveOutput } from './terminal-output';
import { defineTool, ToolError, type RegisteredTool, type ToolRunContext } from './tool';
import { truncateHeadTail } from './truncate';
import type { ToolResult } from './types';

/**
 * Runs each command inside something else (the OS sandbox of src/shared/node/sandbox: its CommandSandbox fits this
 * shape): `wrap` gives the argv, environment and folder to spawn instead of `bash -c COMMAND`.
 */
/** What to spawn for one command: argv, environment and folder, and what to release once it ended. */
interface WrappedSpawn {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  cleanup?(): Promise<void>;
}

export interface CommandWrapper {
  wrap(command: string): Promise<WrappedSpawn>;
  /**
   * The same command outside the sandbox (environment still scrubbed), for a call main allowed with
   * `unsandboxed: true` (a person's "allow once"). Absent: the wrapper confines nothing anyway, `wrap` is used.
   */
  wrapUnsandboxed?(command: string): WrappedSpawn;
  /**
   * The same command in the sandbox's read-only profile, for a call main allowed only as read-only (`sandbox:
   * 'read-only'`). Absent: the wrapper confines nothing (the sandbox is turned off or unavailable, which main knows
   * and names), `wrap` is used.
   */
  wrapReadOnly?(command: string): Promise<WrappedSpawn>;
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

type Ending = { kind: 'exit'; exitCode: number; signal: number } | { kind: 'timeout' } | { kind: 'cancel' };

function workerEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

function footerFor(ending: Ending, timeoutMs: number): string {
  switch (ending.kind) {
    case 'timeout':
      return `[killed after timeout ${timeoutMs} ms]`;
    case 'cancel':
      return '[cancelled]';
    case 'exit':
      return ending.signal !== 0 ? `[terminated by signal ${ending.signal}]` : `[exit code ${ending.exitCode}]`;
  }
}

/**
 * Runs `bash -c COMMAND` (stdin from /dev/null) in a pty in the project root, under the end-marker wrapper of
 * pty-sentinel.ts; the whole process group dies on timeout or cancel. The output streams to the card as it comes
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
  const spawnSpec = wrapped ?? { file: 'bash', args: ['-c', command], env: workerEnv(), cwd: ctx.projectRoot };
  // The emulator loads with the first command, not at the worker's start.
  const { TerminalRenderer } = await import('./terminal-render');
  let term: pty.IPty;
  try {
    term = pty.spawn('bash', ['-c', WRAPPER_SCRIPT, 'gatehouse', marker, spawnSpec.file, ...spawnSpec.args], {
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
  const pgid = term.pid; // the pty's child is a session leader: its pid is the group id
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
    let killing: { kind: 'timeout' | 'cancel'; done: Promise<void> } | null = null;
    const kill = (kind: 'timeout' | 'cancel'): void => {
      if (killing === null) killing = { kind, done: terminateGroup(pgid, graceMs) };
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
        void Promise.all([done, released]).then(() => finish({ kind }));
        return;
      }
      // Background jobs left behind by a finished command are not kept running.
      if (groupAlive(pgid)) void terminateGroup(pgid, graceMs);
      const ending: Ending = {
        kind: 'exit',
        exitCode: filter.exitCode ?? exitCode,
        signal: filter.exitCode === null ? (signal ?? 0) : 0,
      };
      void released.then(() => finish(ending));
    });
  });
}

export function createRunCommandTool(opts: RunCommandOptions): RegisteredTool {
  return defineTool({
    name: 'run_command',
    input: RunCommandInput,
    description:
      'Run a bash command in the project root (bash -c, in a terminal). Returns the output (stdout and stderr ' +
      `together) and the exit code. Killed after timeout_ms (default ${opts.defaultTimeoutMs} ms). ` +
      'Interactive commands get no input: pass flags that make them non-interactive. Commands run in an OS ' +
      'sandbox (writes only in the project, no secrets, network only to allowed domains); set unsandboxed: true ' +
      'only for one command the sandbox blocked that the task truly needs: a person must approve it.',
    timeoutMs: (input) => (input.timeout_ms ?? opts.defaultTimeoutMs) + opts.killGraceMs + 5_000,
    run: (input, ctx) =>
      runInPty(input.command, input.timeout_ms ?? opts.defaultTimeoutMs, opts, ctx, input.unsandboxed === true),
  });
}
