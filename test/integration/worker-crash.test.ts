import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerStatus } from '../../src/shared/api';
import { flushLogs } from '../../src/main/core/log/logger';
import { createNodeWorkerHost } from '../../src/main/services/worker-host/node-worker-host';
import { type WorkerSupervisor } from '../../src/main/services/worker-host/supervisor';

// The real worker bundle in a real child process, with a fault injected (test/fixtures/workers/faulty.cjs).
const FAULTY = path.resolve('test/fixtures/workers/faulty.cjs');

const hosts: WorkerSupervisor[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
  await flushLogs();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function faultyHost(): { host: WorkerSupervisor; logs: string } {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-crash-'));
  dirs.push(config);
  const host = createNodeWorkerHost({ configDir: config, entry: FAULTY, tuning: { backoffBaseMs: 20 } });
  hosts.push(host);
  return { host, logs: path.join(config, 'logs') };
}

function nextState(h: WorkerSupervisor, state: WorkerStatus['state'], timeoutMs = 10_000): Promise<WorkerStatus> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`state ${state} not reached; now ${JSON.stringify(h.status())}`)),
      timeoutMs,
    );
    const off = h.onStatus((s) => {
      if (s.state !== state) return;
      clearTimeout(timer);
      off();
      resolve(s);
    });
  });
}

/** The log's text once it matches `re`: re-read after each flush of this process's logs (no fixed sleep). */
async function logMatching(file: string, re: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await flushLogs();
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (re.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`${file} never matched ${re}; it holds:\n${text}`);
    await new Promise((r) => setImmediate(r));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a worker with an uncaught fault (real child process)', () => {
  it('an uncaught exception: logged to worker.log (redacted), the worker exits, the supervisor starts a new one', async () => {
    const { host, logs } = faultyHost();
    await host.start();
    const first = await host.request('info', {});
    const restarting = nextState(host, 'restarting');
    // The echo may be answered before the timer throws, or fail as the worker dies: either is fine.
    await host.request('echo', { value: 'throw' }).catch(() => undefined);
    const status = await restarting;
    expect(status.message).toMatch(/exit code 70/);
    const second = await host.request('info', {}); // waits for the restart
    expect(second.pid).not.toBe(first.pid);
    expect(isAlive(first.pid)).toBe(false);
    expect(host.status()).toMatchObject({ state: 'ready', restarts: 1 });
    expect(await host.request('echo', { value: 'still here' })).toEqual({ value: 'still here' });

    const workerLog = await logMatching(path.join(logs, 'worker.log'), /exiting \(code 70\)/);
    expect(workerLog).toMatch(
      /\[worker\] gatehouse worker: uncaught exception: Error: a tool bug; its key \[REDACTED\]\n/,
    );
    expect(workerLog).toMatch(/\[worker\] {5}at Timeout\./);
    expect(workerLog).not.toContain('sk-ant-api03');
    const mainLog = await logMatching(path.join(logs, 'main.log'), new RegExp(`worker restarted: pid ${second.pid}`));
    expect(mainLog).toMatch(new RegExp(`info  worker started: pid ${first.pid}, node `));
    expect(mainLog).toMatch(/warn {2}the worker exited \(exit code 70\); restarting in 20 ms/);
  });

  it('an unhandled rejection: the same (logged, exit, restart)', async () => {
    const { host, logs } = faultyHost();
    await host.start();
    const first = await host.request('info', {});
    const restarting = nextState(host, 'restarting');
    await host.request('echo', { value: 'reject' }).catch(() => undefined);
    expect((await restarting).message).toMatch(/exit code 70/);
    const second = await host.request('info', {});
    expect(second.pid).not.toBe(first.pid);
    expect(host.status()).toMatchObject({ state: 'ready', restarts: 1 });
    const workerLog = await logMatching(path.join(logs, 'worker.log'), /exiting \(code 70\)/);
    expect(workerLog).toMatch(/\[worker\] gatehouse worker: unhandled rejection: Error: a library bug\n/);
  });
});
