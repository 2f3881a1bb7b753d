import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const CLI_PATH = path.join(REPO_ROOT, 'out/main/cli.js');

/** The e2e and web tests run the built app: a missing build is a failure (npm test builds first), never a skip. */
export function requireBuiltApp(): void {
  for (const file of [
    CLI_PATH,
    path.join(REPO_ROOT, 'out/main/worker.js'),
    path.join(REPO_ROOT, 'out/renderer/index.html'),
  ]) {
    if (!fs.existsSync(file))
      throw new Error(`${path.relative(REPO_ROOT, file)} is missing: run \`npm run build\` first`);
  }
}

/** A fresh, realpath'd temp dir; removed by `removeTempDir`. */
export function makeTempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export interface RunningWeb {
  /** `http://127.0.0.1:PORT/#token=TOKEN`, exactly as printed. */
  url: string;
  token: string;
  port: number;
  /** `http://127.0.0.1:PORT`: the Origin the socket accepts. */
  origin: string;
  proc: ChildProcess;
  /** GATEHOUSE_HOME and HOME of the server (a temp dir this helper made, unless one was given). */
  home: string;
  project: string | null;
  /** Everything the process wrote to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM to the server's process group (the worker is in it), SIGKILL if it lingers; removes the temp home. */
  stop(): Promise<number | null>;
}

export interface StartWebOptions {
  project?: string | null;
  home?: string;
  args?: string[];
  timeoutMs?: number;
}

const URL_LINE = /^Gatehouse is running at (http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]+))$/m;

function killGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (proc.pid === undefined) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    // already gone
  }
}

/** Starts `node out/main/cli.js web --port 0` in its own process group and waits for its URL line. */
export async function startWeb(options: StartWebOptions = {}): Promise<RunningWeb> {
  requireBuiltApp();
  const ownHome = options.home === undefined;
  const home = options.home ?? makeTempDir('gh-web-home-');
  const project = options.project ?? null;
  const extra = options.args ?? [];
  // --port 0 unless the test gives its own (the CLI refuses a flag given twice)
  const args = [
    CLI_PATH,
    'web',
    ...(extra.includes('--port') ? [] : ['--port', '0']),
    ...(project ? ['--project', project] : []),
    ...extra,
  ];
  const proc = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, GATEHOUSE_HOME: home, HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  proc.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c));
  proc.stderr?.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  // 'close' comes after the process exited AND its output was read to the end ('exit' can come before the last data)
  const closed = new Promise<void>((resolve) => proc.once('close', () => resolve()));

  let stopping: Promise<number | null> | null = null;
  const stop = (): Promise<number | null> => {
    stopping ??= (async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        killGroup(proc, 'SIGTERM');
        const timer = setTimeout(() => killGroup(proc, 'SIGKILL'), 5_000);
        const code = await exited;
        clearTimeout(timer);
        killGroup(proc, 'SIGKILL'); // anything left in the group (the worker) goes too
        if (ownHome) removeTempDir(home);
        return code;
      }
      killGroup(proc, 'SIGKILL');
      if (ownHome) removeTempDir(home);
      return proc.exitCode;
    })();
    return stopping;
  };

  // The URL line as it arrives, or null once the process has ended or the time is up without it.
  const match = await new Promise<RegExpExecArray | null>((resolve) => {
    const check = (): void => {
      const found = URL_LINE.exec(out);
      if (found) done(found);
    };
    const done = (found: RegExpExecArray | null): void => {
      clearTimeout(timer);
      proc.stdout?.off('data', check);
      resolve(found);
    };
    const timer = setTimeout(() => done(null), options.timeoutMs ?? 20_000);
    proc.stdout?.on('data', check);
    void closed.then(() => done(URL_LINE.exec(out)));
    check();
  });
  if (!match) {
    await stop();
    await closed;
    throw new Error(
      `gatehouse web did not print its URL (exit ${proc.exitCode ?? proc.signalCode}).\nstdout: ${out}\nstderr: ${err}`,
    );
  }
  const [, url = '', port = '0', token = ''] = match;
  return {
    url,
    token,
    port: Number(port),
    origin: `http://127.0.0.1:${port}`,
    proc,
    home,
    project,
    stdout: () => out,
    stderr: () => err,
    stop,
  };
}

/** True while a process with this pid exists. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
