import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeWorkerHost } from '../../src/main/services/worker-host/node-worker-host';
import { workerEntryPath } from '../../src/main/services/worker-host/worker-entry';
import type { WorkerSupervisor } from '../../src/main/services/worker-host/supervisor';
import { processRuns } from '../../src/shared/node/process-runs';
import { findOnPath } from '../../src/sandbox/find-binary';
import { removeAfterWrites } from '../support/remove-after-writes';

// The private /tmp of a worker's command sandbox (bubblewrap) is a folder in the system's temp folder. A worker that
// is stopped removes it; one that is killed cannot, and the next worker's first sandbox removes it instead. The
// workers here have a temp folder of their own (TMPDIR): any process's first sandbox removes what killed ones left in
// its temp folder, and other tests' workers run at the same time.

const bwrap = process.platform === 'linux' ? await findOnPath('bwrap') : null;
const why = bwrap === null ? ' (skipped: bubblewrap is not installed)' : '';

let root: string;
let hosts: WorkerSupervisor[] = [];

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-worker-dirs-')));
  for (const d of ['project', 'home', 'config', 'tmp']) fs.mkdirSync(path.join(root, d));
});
afterEach(async () => {
  await Promise.all(hosts.map((h) => h.stop()));
  hosts = [];
  await removeAfterWrites(root);
});

function startHost(): WorkerSupervisor {
  const host = createNodeWorkerHost({ configDir: path.join(root, 'config'), env: { ...process.env, TMPDIR: tmp() } });
  hosts.push(host);
  return host;
}

/** What the status bar's check asks the worker: set up the project's sandbox, and say whether it works. */
const statusParams = () => ({
  projectRoot: path.join(root, 'project'),
  additionalDirectories: [],
  sandbox: {
    enabled: true,
    allowedDomains: [],
    envAllowList: [],
    userConfigDir: path.join(root, 'config'),
    home: path.join(root, 'home'),
  },
});

async function sandboxUp(host: WorkerSupervisor): Promise<boolean> {
  return (await host.request('sandbox.status', statusParams())).available;
}

/** The workers' temp folder. */
const tmp = () => path.join(root, 'tmp');

/** The private /tmp folders of the process `pid`. */
function privateTmpsOf(pid: number): string[] {
  return fs
    .readdirSync(tmp())
    .filter((name) => name.startsWith(`gatehouse-sandbox-tmp-${pid}-`))
    .map((name) => path.join(tmp(), name));
}

describe.skipIf(bwrap === null)(`the sandboxes’ private /tmp folders of a worker${why}`, () => {
  it('go when the worker is stopped', async () => {
    const host = startHost();
    await host.start();
    const { pid } = await host.request('info', {});
    expect(await sandboxUp(host)).toBe(true);
    const [dir] = privateTmpsOf(pid);
    expect(dir).toBeDefined();
    expect(fs.statSync(dir!).isDirectory()).toBe(true);
    await host.stop();
    expect(privateTmpsOf(pid)).toEqual([]);
  });

  it("of a killed worker go when the next worker sets up its first sandbox; a running process's stay", async () => {
    const host = startHost();
    await host.start();
    const first = await host.request('info', {});
    expect(await sandboxUp(host)).toBe(true);
    const [orphan] = privateTmpsOf(first.pid);
    fs.writeFileSync(path.join(orphan!, 'from-a-command.txt'), 'x\n');
    // A folder named after a process that runs (this one): it must stay.
    const alive = fs.mkdtempSync(path.join(tmp(), `gatehouse-sandbox-tmp-${process.pid}-`));

    const restarted = new Promise<void>((resolve) => {
      let crashed = false;
      const off = host.onStatus((s) => {
        crashed ||= s.state === 'restarting';
        if (crashed && s.state === 'ready') {
          off();
          resolve();
        }
      });
    });
    process.kill(first.pid, 'SIGKILL');
    await restarted;
    const second = await host.request('info', {});
    expect(second.pid).not.toBe(first.pid);
    expect(fs.existsSync(orphan!)).toBe(true); // killed: it could not clean up

    expect(await sandboxUp(host)).toBe(true);
    await expect.poll(() => fs.existsSync(orphan!)).toBe(false);
    expect(fs.existsSync(alive)).toBe(true);
    expect(privateTmpsOf(second.pid)).toHaveLength(1);
  });

  it('go when main dies without stopping the worker (its IPC channel closes)', async () => {
    const parent = spawn(
      process.execPath,
      [path.resolve('test/fixtures/workers/parent-of-worker.mjs'), workerEntryPath(), JSON.stringify(statusParams())],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TMPDIR: tmp() } },
    );
    const exited = new Promise<void>((resolve) => parent.once('exit', () => resolve()));
    const ready = await new Promise<string>((resolve) => {
      let out = '';
      parent.stdout.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        const line = /^ready (\d+) (true|false)$/m.exec(out);
        if (line) resolve(line[0]);
      });
    });
    const [, pid, available] = ready.split(' ');
    const workerPid = Number(pid);
    expect(available).toBe('true');
    expect(privateTmpsOf(workerPid)).toHaveLength(1);
    parent.kill('SIGKILL');
    await exited;
    await expect.poll(() => processRuns(workerPid)).toBe(false);
    expect(privateTmpsOf(workerPid)).toEqual([]);
  });
});
