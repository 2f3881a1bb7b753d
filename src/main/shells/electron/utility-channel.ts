import type { PortMessage } from '../../../shared/worker-protocol';
import { prefixLines } from '../../services/worker-host/node-launcher';
import type { WorkerChannel } from '../../core/worker-host-types';

/** The part of Electron's `UtilityProcess` the worker channel uses (kept structural so it is testable without Electron). */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'spawn', listener: () => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  /** A V8 fatal error (`FatalError`): `exit` follows. Unlistened, an `error` event would throw in the main process. */
  on(event: 'error', listener: (type: string, location: string, report: string) => void): unknown;
}

export interface UtilityChannelOptions {
  /**
   * Where the worker's stdout/stderr go (they are piped and must be drained, or the worker blocks on a full pipe).
   * Default: stderr, prefixed and redacted like every other log line (a crash dump can hold a key).
   */
  onOutput?: (text: string) => void;
  /** After kill() (SIGTERM), how long to wait before SIGKILL. */
  killGraceMs?: number;
  /** Sends a signal to a pid (process.kill); injectable for tests. */
  signal?: (pid: number, signal: NodeJS.Signals) => void;
}

/**
 * Wraps a utility process into the supervisor's `WorkerChannel`. Its `exit` event carries only a code, so the
 * signal is reported as null. `kill()` asks politely (SIGTERM through Electron) and, for a worker hung in a busy
 * loop, follows with SIGKILL after a grace period.
 */
export function channelFromUtilityProcess(
  child: UtilityProcessLike,
  options: UtilityChannelOptions = {},
): WorkerChannel {
  const onOutput = options.onOutput ?? ((text: string) => process.stderr.write(prefixLines(text)));
  const graceMs = options.killGraceMs ?? 2_000;
  const signal = options.signal ?? ((pid: number, sig: NodeJS.Signals) => process.kill(pid, sig));
  let exited = false;
  let exitCode: number | null = null;
  let lastPid: number | undefined;
  let killTimer: NodeJS.Timeout | null = null;

  child.on('spawn', () => {
    lastPid = child.pid;
  });
  child.on('error', (type, location) => {
    // The exit that follows restarts the worker (the supervisor); the diagnostic report (a large JSON document) is
    // not printed.
    onOutput(`fatal error (${String(type).slice(0, 40)}) at ${String(location).slice(0, 200)}; the worker will exit\n`);
  });
  child.on('exit', (code) => {
    exited = true;
    exitCode = code;
    if (killTimer) clearTimeout(killTimer);
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string | Buffer) => onOutput(String(chunk)));
  }

  return {
    get pid() {
      return child.pid ?? lastPid;
    },
    send(message: PortMessage) {
      if (exited) return;
      try {
        child.postMessage(message);
      } catch {
        // Racing the worker's death: the exit event reports it.
      }
    },
    onMessage(listener) {
      child.on('message', (message) => listener(message));
    },
    onExit(listener) {
      let called = false;
      if (exited) {
        // Subscribed after the fact (e.g. stop() on a dead worker): still told, once.
        called = true;
        queueMicrotask(() => listener(exitCode, null));
        return;
      }
      child.on('exit', (code) => {
        if (called) return;
        called = true;
        listener(code, null);
      });
    },
    kill(force = false) {
      if (exited) return;
      const pid = child.pid ?? lastPid;
      if (force && pid !== undefined) {
        try {
          signal(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
        return;
      }
      child.kill();
      if (pid === undefined || killTimer) return;
      killTimer = setTimeout(() => {
        killTimer = null;
        if (exited) return;
        try {
          signal(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }, graceMs);
      killTimer.unref();
    },
  };
}
