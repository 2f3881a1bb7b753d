import { spawn } from 'node:child_process';

export interface WebProcess {
  url: string;
  stop(): Promise<void>;
}

const URL_LINE = /Gatehouse is running at (http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)/;

/** Runs the built browser shell (`gatehouse web --port 0`) in its own process group and waits for its URL. */
export async function startWebProcess(options: {
  cliPath: string;
  project: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<WebProcess> {
  const proc = spawn(process.execPath, [options.cliPath, 'web', '--port', '0', '--project', options.project], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  proc.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const kill = (signal: NodeJS.Signals): void => {
    try {
      if (proc.pid !== undefined) process.kill(-proc.pid, signal);
    } catch {
      // already gone
    }
  };
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    kill('SIGKILL'); // the worker is in the same group
  };
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const match = URL_LINE.exec(out);
    if (match?.[1]) return { url: match[1], stop };
    if (proc.exitCode !== null || proc.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(
        `gatehouse web did not print its URL (exit ${proc.exitCode ?? proc.signalCode}): ${err.trim().slice(-500)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
