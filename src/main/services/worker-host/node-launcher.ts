import { fork } from 'node:child_process';
import type { PortMessage } from '../../../shared/worker-protocol';
import type { Logger, OutputSink } from '../../core/log/logger';
import { redactText } from '../../core/permission/redact';
import type { WorkerChannel, WorkerLauncher } from '../../core/worker-host-types';

/** Starts the worker bundle as a Node child process (CLI, browser shell, tests): same bundle as the utility process. */
export class NodeWorkerLauncher implements WorkerLauncher {
  readonly runtime = 'node' as const;

  /**
   * `output`: makes the sink of one launch's stdout and stderr (each launch gets its own, so a line cut by one
   * worker's death is not glued to the next one's); default: this process's stderr, redacted.
   */
  constructor(
    private readonly output: () => OutputSink = stderrSink,
    private readonly killGraceMs = 2_000,
  ) {}

  launch(entry: string, env: Record<string, string>): WorkerChannel {
    const child = fork(entry, [], {
      env,
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const sink = this.output();
    child.stdout?.setEncoding('utf8').on('data', (c: string) => sink.write(c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => sink.write(c));
    // 'close' comes after both streams ended: the last words of a crash are in.
    child.once('close', () => sink.end());
    // A send racing the child's death must not throw into the host.
    child.on('error', () => undefined);
    const running = (): boolean => child.exitCode === null && child.signalCode === null;
    let killTimer: NodeJS.Timeout | null = null;
    child.once('exit', () => {
      if (killTimer) clearTimeout(killTimer);
    });
    const graceMs = this.killGraceMs;
    return {
      get pid() {
        return child.pid;
      },
      send(message: PortMessage) {
        if (child.connected) child.send(message, (err) => void err);
      },
      onMessage(listener) {
        child.on('message', (m) => listener(m));
      },
      onExit(listener) {
        child.once('exit', (code, signal) => listener(code, signal));
      },
      kill(force = false) {
        if (!running()) return;
        if (force) {
          child.kill('SIGKILL');
          return;
        }
        child.kill('SIGTERM');
        killTimer ??= setTimeout(() => {
          if (running()) child.kill('SIGKILL');
        }, graceMs);
        killTimer.unref();
      },
    };
  }
}

function stderrSink(): OutputSink {
  return { write: (chunk) => process.stderr.write(prefixLines(chunk)), end: () => undefined };
}

/**
 * The worker's output into worker.log (the worker writes no file itself: what it prints, a crash's stack included,
 * reaches the disk from here) and, with `echo`, onto this process's stderr as before. For either launcher.
 */
export function workerOutputSink(log: Logger, echo = true): () => OutputSink {
  return () => {
    const file = log.outputSink('[worker]');
    const stderr = stderrSink();
    return {
      write(chunk) {
        file.write(chunk);
        if (echo) stderr.write(chunk);
      },
      end: () => file.end(),
    };
  };
}

/** The worker's own output, as a log line on stderr: secrets redacted (a crash dump can hold a key). */
export function prefixLines(chunk: string): string {
  return redactText(chunk)
    .split('\n')
    .map((l) => (l ? `[worker] ${l}` : l))
    .join('\n');
}
