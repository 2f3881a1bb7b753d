import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeWorkerHost } from '../../src/main/services/worker-host/node-worker-host';
import { workerEntryPath } from '../../src/main/services/worker-host/worker-entry';
import type { WorkerSupervisor } from '../../src/main/services/worker-host/supervisor';
import { userCacheDir } from '../../src/shared/node/user-folders';

// The worker (out/main/worker.js) keeps its compiled code in the user's cache folder, as the CLI does
// (test/unit/cli/code-cache.test.ts covers the mechanism: damaged files, foreign folders). A cache is only ever a
// speed-up: a worker that reads it answers as one that compiled its code. Speed is measured by `npm run bench`.

const nodeCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

let root: string;
let home: string;
let hosts: WorkerSupervisor[] = [];
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-worker-cache-')));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
});
afterEach(async () => {
  await Promise.all(hosts.map((h) => h.stop()));
  hosts = [];
  fs.rmSync(root, { recursive: true, force: true });
});

/** The folder this Node's cache lives in, for the test's HOME. */
function cacheFolder(): string {
  const base = userCacheDir({ HOME: home });
  return nodeCompileCache
    ? path.join(base, 'node-compile-cache')
    : path.join(base, 'v8-code', `${process.version}-${process.arch}`);
}

/** Each cache file's name and modification time (none when the folder is missing). */
function cacheFiles(): Map<string, number> {
  try {
    return new Map(fs.readdirSync(cacheFolder()).map((f) => [f, fs.statSync(path.join(cacheFolder(), f)).mtimeMs]));
  } catch {
    return new Map();
  }
}

/** Starts a worker with the test's HOME (and no XDG_CACHE_HOME), checks that it answers, and stops it. */
async function runWorker(extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.XDG_CACHE_HOME;
  delete env.GATEHOUSE_CODE_CACHE;
  Object.assign(env, extraEnv);
  const host = createNodeWorkerHost({ configDir: path.join(root, 'gh'), env });
  hosts.push(host);
  await host.start();
  expect((await host.request('info', {})).pid).toBeGreaterThan(0);
  expect(await host.request('echo', { value: 'cached?' })).toEqual({ value: 'cached?' });
  await host.stop();
}

describe('the worker code cache', () => {
  it('is written on the first start, private to the user, and read (not written again) by the next worker', async () => {
    expect(fs.existsSync(workerEntryPath()), 'out/main/worker.js is missing: run `npm run build` first').toBe(true);
    await runWorker();
    const first = cacheFiles();
    expect(first.size).toBeGreaterThan(0);
    if (!nodeCompileCache) {
      // One file per chunk the worker loaded, named for the worker (the CLI's commands have their own).
      expect([...first.keys()].every((f) => f.endsWith('.worker.bin'))).toBe(true);
      expect([...first.keys()].some((f) => f.startsWith('worker-process-'))).toBe(true);
    }
    if (process.platform !== 'win32') expect(fs.statSync(cacheFolder()).mode & 0o077).toBe(0);

    await runWorker();
    // V8 accepted every file: none was rewritten, and no chunk was left to compile from scratch.
    expect(cacheFiles()).toEqual(first);
  }, 60_000);

  it('follows XDG_CACHE_HOME, as the CLI does, and is off with GATEHOUSE_CODE_CACHE=0', async () => {
    const xdg = path.join(root, 'xdg-cache');
    fs.mkdirSync(xdg);
    await runWorker({ XDG_CACHE_HOME: xdg });
    expect(fs.readdirSync(path.join(xdg, 'gatehouse'))).not.toEqual([]);
    expect(cacheFiles().size).toBe(0);

    await runWorker({ GATEHOUSE_CODE_CACHE: '0' });
    expect(fs.existsSync(userCacheDir({ HOME: home }))).toBe(false);
  }, 60_000);
});
