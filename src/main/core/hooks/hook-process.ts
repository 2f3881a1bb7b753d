import { spawn, type ChildProcess } from 'node:child_process';
import { killWindowsTree, type ProgramRunner } from '../../../shared/node/process-tree';
import type { WrappedCommand } from '../../../sandbox/types';

export interface HookProcessResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Output beyond the cap was dropped (a JSON answer cut short is then malformed: never an allow). */
  truncated: boolean;
  timedOut: boolean;
  /** The process could not be started (or stdin could not be written): the hook failed. */
  error: string | null;
  durationMs: number;
}

/** A hook's stdout and stderr are each kept up to this many bytes. */
const HOOK_OUTPUT_CAP = 256 * 1024;

/** Ends a hook and whatever it started: its process group on Linux and macOS; on Windows its process tree (taskkill). */
type HookKiller = (child: ChildProcess) => void;

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** `run`: how taskkill is run (tests give a fake one). */
export function hookKiller(platform: NodeJS.Platform = process.platform, run?: ProgramRunner): HookKiller {
  if (platform !== 'win32') return killGroup;
  return (child) => {
    if (child.pid === undefined) {
      child.kill();
      return;
    }
    // taskkill refused (or could not run): the hook's own process at least.
    void killWindowsTree(child.pid, run).then((failure) => failure !== null && child.kill());
  };
}

/**
 * Runs one hook process (`/bin/sh -c COMMAND` directly, on Windows Git Bash or PowerShell, or as the OS sandbox
 * wrapped it; what the sandbox held for it is released before the result comes): the JSON on stdin, stdout and stderr
 * collected (capped), killed with its whole process group (on Windows its process tree) when `timeoutMs` passes or
 * `signal` aborts. Never throws: every failure is in the result.
 */
export function runHookProcess(
  spec: WrappedCommand,
  stdin: string,
  timeoutMs: number,
  signal?: AbortSignal,
  kill: HookKiller = hookKiller(),
): Promise<HookProcessResult> {
  const started = performance.now();
  const release = (): Promise<void> => spec.cleanup?.().catch(() => undefined) ?? Promise.resolve();
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(spec.file, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (err) {
      void release().then(() => resolve(failed(`could not start: ${(err as Error).message}`, started)));
      return;
    }
    const out: Buffer[] = [];
    const errOut: Buffer[] = [];
    const sizes = { out: 0, err: 0 };
    let truncated = false;
    let timedOut = false;
    let error: string | null = null;
    const keep = (chunks: Buffer[], key: 'out' | 'err') => (chunk: Buffer) => {
      const room = HOOK_OUTPUT_CAP - sizes[key];
      if (room <= 0) {
        truncated = true;
        return;
      }
      if (chunk.length > room) truncated = true;
      const kept = chunk.subarray(0, Math.max(0, room));
      chunks.push(kept);
      sizes[key] += kept.length;
    };
    child.stdout?.on('data', keep(out, 'out'));
    child.stderr?.on('data', keep(errOut, 'err'));
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child);
    }, timeoutMs);
    const onAbort = (): void => {
      error ??= 'cancelled';
      kill(child);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    child.on('error', (err) => {
      error ??= `could not start: ${err.message}`;
    });
    // A hook that exits without reading its input is fine (EPIPE on our side is not its failure).
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(stdin);
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const released = release();
      // The hook's own children may keep running in its group after it exits: they go with it. (On Windows a tree
      // whose root is gone cannot be found by parent id any more.)
      if (!timedOut && child.pid !== undefined && process.platform !== 'win32') {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group is already gone
        }
      }
      const result: HookProcessResult = {
        exitCode: code,
        signal: sig,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(errOut).toString('utf8'),
        truncated,
        timedOut,
        error,
        durationMs: Math.round(performance.now() - started),
      };
      void released.then(() => resolve(result));
    });
  });
}

function failed(error: string, started: number): HookProcessResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    truncated: false,
    timedOut: false,
    error,
    durationMs: Math.round(performance.now() - started),
  };
}
