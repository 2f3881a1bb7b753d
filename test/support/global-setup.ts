import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import type { BrowserServer } from 'playwright';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser';
import { bundleTestMcpServers, MCP_BUNDLE_ENV } from './mcp-bundle';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's endpoint for `chromium.connect` (see launchChromium); '' when there is none. */
    chromiumWsEndpoint: string;
  }
}

/**
 * Runs once per project in Vitest's main process, before its workers start (and only when the project has tests to
 * run). Two things every file would otherwise pay for again, and one that would outlive the run:
 *
 * - The compiled-code cache of the CLI and the worker (src/shared/node/code-cache.ts) lives in the user's cache
 *   folder. The tests give each `gatehouse` process a fresh HOME, so each one (and its worker) compiled its bundle
 *   from scratch and wrote a cache no one read. Here every process of the run shares one cache folder
 *   (XDG_CACHE_HOME, a fresh temp dir per run), as a user's processes do. A test that is about the cache
 *   (test/unit/cli/code-cache.test.ts) passes its own environment.
 * - The decision helpers `gatehouse permissions check` and `hook claude` start (a helper exits after minutes idle):
 *   see below.
 * - One Chromium for the whole integration project: `launchChromium()` connects to it, and each file gets its own
 *   connection (closing it closes only that file's contexts and pages), each test its own contexts.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cleanups: (() => Promise<void>)[] = [];
  const extraCaCerts = process.env.NODE_EXTRA_CA_CERTS;
  if (extraCaCerts !== undefined) {
    // Set where a TLS-inspecting proxy stands between the machine and the internet, as on the machine these tests
    // were written on (it names the system's own bundle there). Node 20 reads and parses that bundle, with its own
    // roots, as every process starts, before any code runs: ~80 ms of CPU for `node -e 0` (0.12 s against 0.04 s),
    // paid by each Node process a test starts with this environment (CLIs, servers, fixtures, the permission corpus's
    // ~250 CLIs). None of them makes a TLS connection (every server of the tests is plain HTTP on loopback), so the
    // run's processes start without it. Users keep theirs: the product passes it on to its worker and stdio MCP
    // servers (src/shared/basic-env.ts), which need it to reach their APIs through such a proxy.
    delete process.env.NODE_EXTRA_CA_CERTS;
    cleanups.push(async () => {
      process.env.NODE_EXTRA_CA_CERTS = extraCaCerts;
    });
  }
  if (!process.env.GATEHOUSE_TEST_CODE_CACHE) {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-test-cache-')));
    process.env.GATEHOUSE_TEST_CODE_CACHE = dir;
    process.env.XDG_CACHE_HOME = dir;
    cleanups.push(async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      delete process.env.GATEHOUSE_TEST_CODE_CACHE;
    });
  }
  if (!process.env.GATEHOUSE_TEST_RUNTIME_DIR) {
    // The CLI's decision helpers (src/main/shells/cli/decision-helper.ts) started by this run's `gatehouse` processes live
    // in this run's own runtime folder, and at the end exit within a second of their socket folder being removed.
    // Between calls a helper waits 2 minutes, near a user's 3: with 10 s, the suite started one 26 times, at ~0.8 s
    // of CPU each, whenever its calls were more than 10 s apart.
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-test-run-')));
    process.env.GATEHOUSE_TEST_RUNTIME_DIR = dir;
    process.env.XDG_RUNTIME_DIR = dir;
    process.env.GATEHOUSE_DECISION_HELPER_IDLE_MS = '120000';
    cleanups.push(async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      delete process.env.GATEHOUSE_TEST_RUNTIME_DIR;
    });
  }
  if (project.name === 'integration' && !process.env[MCP_BUNDLE_ENV]) {
    // The test MCP servers, self-contained where the OS sandbox shows them (see mcp-bundle.ts).
    const bundle = await bundleTestMcpServers(path.resolve(__dirname, '..', '..'));
    process.env[MCP_BUNDLE_ENV] = bundle.dir;
    cleanups.push(async () => {
      bundle.remove();
      delete process.env[MCP_BUNDLE_ENV];
    });
  }
  let server: BrowserServer | undefined;
  if (project.name === 'integration' && fs.existsSync(CHROMIUM_PATH)) {
    server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    cleanups.push(async () => server?.close());
  }
  project.provide('chromiumWsEndpoint', server?.wsEndpoint() ?? '');
  return async () => {
    // Every cleanup runs, whatever one before it threw (one that throws, a Chromium that will not close say, would
    // otherwise leave the run's temp folders behind); the first failure is reported after all of them.
    const failures: unknown[] = [];
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => failures.push(err));
    if (failures.length > 0) throw failures[0];
  };
}
