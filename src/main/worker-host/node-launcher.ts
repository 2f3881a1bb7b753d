import { fork } from 'node:child_process';
import type { PortMessage } from '../../shared/worker-protocol';
import { redactText } from '../permission/redact';
import type { WorkerChannel, WorkerLauncher } from './types';

/** Starts the worker bundle as a Node child process (CLI, browser shell, tests): same bundle as the utility process. */
export class NodeWorkerLauncher implements WorkerLauncher {
  readonly runtime = 'node' as const;

  constructor(private readonly onStderr: (chunk: string) => void = (c) => process.stderr.write(prefixLines(c))) {}

  launch(entry: string, env: Record<string, string>): WorkerChannel {
    const child = fork(entry, [], {
      env,
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    child.stdout?.setEncoding('utf8').on('data', (c: string) => this.onStderr(c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => this.onStderr(c));
    // A send racing the child's death must not throw into the host.
    child.on('error', () => undefined);
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
      kill() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      },
    };
  }
}

/** The worker's own output, as a log line on stderr: secrets redacted (a crash dump can hold a key). */
function prefixLines(chunk: string): string {
  return redactText(chunk)
    .split('\n')
    .map((l) => (l ? `[worker] ${l}` : l))
    .join('\n');
}
