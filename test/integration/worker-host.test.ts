import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatehouseError } from '../../src/shared/errors';
import type { WorkerStatus } from '../../src/shared/api';
import { createNodeWorkerHost } from '../../src/main/services/worker-host/node-worker-host';
import { NodeWorkerLauncher } from '../../src/main/services/worker-host/node-launcher';
import { WorkerSupervisor } from '../../src/main/services/worker-host/supervisor';
import { workerEntryPath } from '../../src/main/services/worker-host/worker-entry';
import { buildWorkerEnv } from '../../src/main/services/worker-host/worker-env';
import { removeAfterWrites } from '../support/remove-after-writes';

/** The hosts' config folder (their logs go there). */
let configDir: string;
beforeAll(() => {
  configDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-worker-host-')));
});
afterAll(() => removeAfterWrites(configDir));

const hosts: WorkerSupervisor[] = [];
function track(h: WorkerSupervisor): WorkerSupervisor {
  hosts.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function caught(p: Promise<unknown>): Promise<GatehouseError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof GatehouseError) return err;
    throw err;
  }
  throw new Error('expected the promise to reject');
}

function waitForState(h: WorkerSupervisor, state: WorkerStatus['state'], timeoutMs = 10_000): Promise<WorkerStatus> {
  if (h.status().state === state) return Promise.resolve(h.status());
  return nextState(h, state, timeoutMs);
}

/** Resolves on the next transition into `state` (ignores the current state). */
function nextState(h: WorkerSupervisor, state: WorkerStatus['state'], timeoutMs = 10_000): Promise<WorkerStatus> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`state ${state} not reached; now ${JSON.stringify(h.status())}`)),
      timeoutMs,
    );
    const off = h.onStatus((s) => {
      if (s.state === state) {
        clearTimeout(timer);
        off();
        resolve(s);
      }
    });
  });
}

describe('the supervised worker (a real child process of the built bundle)', () => {
  it('starts, handshakes and answers a round trip', async () => {
    const h = track(createNodeWorkerHost({ configDir: configDir }));
    await h.start();
    const info = await h.request('info', {});
    expect(info.pid).not.toBe(process.pid);
    expect(isAlive(info.pid)).toBe(true);
    expect(info.runtime).toBe('node');
    expect(h.status()).toMatchObject({ state: 'ready', restarts: 0 });
    expect(await h.request('echo', { value: 'héllo' })).toEqual({ value: 'héllo' });
  });

  it('gives the worker a minimal environment without the parent tokens', async () => {
    const parent = {
      ...process.env,
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      GITHUB_TOKEN: 'ghp_x',
      AWS_SECRET_ACCESS_KEY: 'y',
      NODE_OPTIONS: '--inspect',
    };
    const h = track(createNodeWorkerHost({ configDir: configDir, env: parent }));
    await h.start();
    const { envNames } = await h.request('info', {});
    for (const secret of ['ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'NODE_OPTIONS'])
      expect(envNames).not.toContain(secret);
    expect(envNames).toContain('PATH');
    expect(envNames).toContain('GATEHOUSE_HOME');
  });

  it("passes on the user's extra root certificates (NODE_EXTRA_CA_CERTS), which the worker needs behind a TLS-inspecting proxy", async () => {
    const certs = path.join(configDir, 'extra-roots.pem');
    fs.writeFileSync(certs, `${tls.rootCertificates[0]}\n`);
    const h = track(createNodeWorkerHost({ configDir, env: { ...process.env, NODE_EXTRA_CA_CERTS: certs } }));
    await h.start();
    expect((await h.request('info', {})).envNames).toContain('NODE_EXTRA_CA_CERTS');
    const without = { ...process.env };
    delete without.NODE_EXTRA_CA_CERTS;
    await h.stop();
    const bare = track(createNodeWorkerHost({ configDir, env: without }));
    await bare.start();
    expect((await bare.request('info', {})).envNames).not.toContain('NODE_EXTRA_CA_CERTS');
  });

  it('rejects malformed params before they reach the worker', async () => {
    const h = track(createNodeWorkerHost({ configDir: configDir }));
    await h.start();
    // @ts-expect-error: a wrong type on purpose, as a buggy caller would send
    const err = await caught(h.request('delay', { ms: 'soon' }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/delay\.ms/);
  });

  it('SIGKILL mid-request: the request fails with a typed error, the worker restarts, the next request works', async () => {
    const h = track(createNodeWorkerHost({ configDir: configDir }));
    await h.start();
    const first = await h.request('info', {});
    const inFlight = h.request('delay', { ms: 30_000 });
    // The worker serves requests side by side and reads them in order: its answer to a later one proves it holds the
    // delay when it is killed.
    await h.request('echo', { value: 'after the delay' });
    process.kill(first.pid, 'SIGKILL');
    const err = await caught(inFlight);
    expect(err.code).toBe('WORKER_CRASHED');
    expect(err.message).toMatch(/SIGKILL/);
    expect(err.message).toMatch(/delay/);
    const again = await h.request('info', {}); // waits for the restart
    expect(again.pid).not.toBe(first.pid);
    expect(isAlive(again.pid)).toBe(true);
    expect(h.status()).toMatchObject({ state: 'ready', restarts: 1 });
  });

  it('after repeated crashes it stops restarting and says so plainly', async () => {
    const h = track(createNodeWorkerHost({ configDir: configDir, tuning: { maxCrashes: 2, backoffBaseMs: 20 } }));
    await h.start();
    for (let i = 0; i < 3; i++) {
      const { pid } = await h.request('info', {});
      const next = nextState(h, i < 2 ? 'restarting' : 'failed');
      process.kill(pid, 'SIGKILL');
      await next;
      if (i < 2) await waitForState(h, 'ready');
    }
    const failed = await waitForState(h, 'failed');
    expect(failed.message).toMatch(/crashed 3 times/);
    expect(failed.message).toMatch(/stopped restarting/);
    const err = await caught(h.request('info', {}));
    expect(err.code).toBe('WORKER_UNAVAILABLE');
  });

  it('a worker that never says hello fails start-up with a clear error', async () => {
    const h = track(
      new WorkerSupervisor({
        launcher: new NodeWorkerLauncher(),
        entry: path.resolve('test/fixtures/workers/silent.cjs'),
        env: buildWorkerEnv(process.env),
        handshakeTimeoutMs: 500,
        maxCrashes: 0,
      }),
    );
    const err = await caught(h.start());
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/did not start within/);
  });

  it('a hung worker (no heartbeat answers) is killed and restarted', async () => {
    const h = track(createNodeWorkerHost({ configDir: configDir, tuning: { heartbeatMs: 100, heartbeatMisses: 3 } }));
    await h.start();
    const { pid } = await h.request('info', {});
    process.kill(pid, 'SIGSTOP');
    await waitForState(h, 'restarting');
    const after = await h.request('info', {});
    expect(after.pid).not.toBe(pid);
    expect(isAlive(pid)).toBe(false);
  });

  it('a permission request pending in main counts as denied when the worker dies', async () => {
    const h = track(
      new WorkerSupervisor({
        launcher: new NodeWorkerLauncher(),
        entry: path.resolve('test/fixtures/workers/asks-permission.cjs'),
        env: buildWorkerEnv(process.env),
        maxCrashes: 0,
      }),
    );
    let asked: () => void = () => undefined;
    const pending = new Promise<void>((resolve) => (asked = resolve));
    const aborted = new Promise<string>((resolve) => {
      h.handle('permission.request', (params, signal) => {
        asked();
        return new Promise((done) => {
          signal.addEventListener('abort', () => {
            resolve(params.tool);
            done({ decision: 'deny', source: 'approval', rule: null, reason: 'the worker exited' });
          });
        });
      });
    });
    await h.start();
    const pid = h.status().info?.pid;
    expect(pid).toBeTypeOf('number');
    await pending; // main holds the worker's question
    process.kill(pid as number, 'SIGKILL');
    expect(await aborted).toBe('write_file');
  });

  it('the Node launcher asks first (SIGTERM), then SIGKILLs after its grace period; kill(true) does not ask', async () => {
    // Each launch's output, complete once its streams closed (the launcher ends the sink then).
    let output = '';
    let ended: () => void = () => undefined;
    const launcher = new NodeWorkerLauncher(() => ({ write: (c) => (output += c), end: () => ended() }), 300);
    const entry = path.resolve('test/fixtures/workers/stubborn.cjs');
    const run = async (force: boolean) => {
      output = '';
      const closed = new Promise<void>((resolve) => (ended = resolve));
      const ch = launcher.launch(entry, buildWorkerEnv(process.env));
      await new Promise<void>((resolve) => ch.onMessage(() => resolve()));
      const exited = new Promise<string | null>((resolve) => ch.onExit((_code, signal) => resolve(signal)));
      ch.kill(force);
      const signal = await exited;
      await closed;
      return { signal, output };
    };
    expect(await run(false)).toEqual({ signal: 'SIGKILL', output: 'got-term\n' });
    expect(await run(true)).toEqual({ signal: 'SIGKILL', output: '' });
  });

  it('finds the built worker bundle', () => {
    expect(workerEntryPath()).toMatch(/out[\\/]main[\\/]worker\.js$/);
  });
});
