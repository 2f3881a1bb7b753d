import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { AppCore } from '../../src/main/services/app/app-core';
import { dispatchApi } from '../../src/main/services/app/api-dispatch';
import { TrustStore } from '../../src/main/core/trust/trust-store';
import { createNodeWorkerHost } from '../../src/main/services/worker-host/node-worker-host';
import type { WorkerSupervisor } from '../../src/main/services/worker-host/supervisor';
import type { ApiEvent } from '../../src/shared/api';
import { codeCacheEnv } from '../support/code-cache-env';
import { startFakeAnthropic, text } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequestBody } from '../support/fake-anthropic';
import { removeAfterWrites } from '../support/remove-after-writes';

// Shared by the agent / CLI / app integration tests: temp folders, the built `gatehouse` binary as a real process,
// an AppCore on the real worker process.

export const CLI = path.resolve(__dirname, '../../out/main/cli.js');

export interface Sandbox {
  project: string;
  configDir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function makeSandbox(fake: FakeAnthropic): Sandbox {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-agent-cli-')));
  const project = path.join(root, 'project');
  const configDir = path.join(root, 'config');
  const home = path.join(root, 'home');
  for (const d of [project, configDir, home]) fs.mkdirSync(d);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    GATEHOUSE_HOME: configDir,
    ANTHROPIC_API_KEY: fake.apiKey,
    ANTHROPIC_BASE_URL: fake.baseURL,
    ...codeCacheEnv(),
  };
  return { project, configDir, home, env, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

export function runGatehouse(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A `gatehouse run --output json` process answered by one slow stream (300 ms between events, 2 characters each). */
export interface SlowRun {
  child: ChildProcessWithoutNullStreams;
  /** Everything written so far. */
  stdout: string;
  stderr: string;
  /** The exit code, once the output is read to its end. */
  closed: Promise<number | null>;
}

/** Starts a `SlowRun`; `detached`: in a process group of its own (as a terminal's foreground job), with its worker. */
export function startSlowRun(fake: FakeAnthropic, box: Sandbox, options: { detached?: boolean } = {}): SlowRun {
  fake.enqueue({
    kind: 'message',
    content: [text('a very slow answer that goes on and on and on')],
    eventDelayMs: 300,
    chunkSize: 2,
  });
  const child = spawn(process.execPath, [CLI, 'run', '--output', 'json', '--project', box.project, 'talk slowly'], {
    env: box.env,
    cwd: box.home,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  child.stdin.end();
  const run: SlowRun = {
    child,
    stdout: '',
    stderr: '',
    closed: new Promise((resolve) => child.once('close', (code) => resolve(code))),
  };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (run.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (run.stderr += c));
  return run;
}

/** `gatehouse rpc` as a process: send commands, wait for events. */
export class RpcClient {
  readonly events: Array<Record<string, unknown>> = [];
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  private buffer = '';
  /** Called after each batch of new events. */
  private readonly listeners = new Set<() => void>();

  constructor(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
    this.child = spawn(process.execPath, [CLI, 'rpc', ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.setEncoding('utf8').on('data', (c: string) => (this.stderr += c));
    this.child.stdout.setEncoding('utf8').on('data', (c: string) => {
      this.buffer += c;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim()) this.events.push(JSON.parse(line) as Record<string, unknown>);
      }
      for (const listener of [...this.listeners]) listener();
    });
  }

  send(value: unknown): void {
    this.child.stdin.write((typeof value === 'string' ? value : JSON.stringify(value)) + '\n');
  }

  /** The first event (from index `from`) matching `match`. */
  waitFor(
    match: (e: Record<string, unknown>) => boolean,
    from = 0,
    timeoutMs = 20_000,
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.events.slice(from).find(match);
        if (!found) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`event not seen; got ${JSON.stringify(this.events).slice(0, 3000)}\nstderr: ${this.stderr}`));
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    if (this.child.exitCode !== null) return this.child.exitCode;
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }
}

/** The tool_result blocks of the last user message of a recorded request. */
export function sentToolResults(body: FakeRequestBody): Array<Record<string, unknown>> {
  const last = body.messages[body.messages.length - 1]!;
  return Array.isArray(last.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
}

export const jsonLines = (text: string): Array<Record<string, unknown>> =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/**
 * Per test: a fresh loopback model server and a fresh temp sandbox (project, config dir, home), torn down after.
 * `use` receives both before each test.
 */
export function withFakeModel(use: (fake: FakeAnthropic, box: Sandbox) => void): void {
  let current: { fake: FakeAnthropic; box: Sandbox } | null = null;
  beforeEach(async () => {
    const fake = await startFakeAnthropic();
    current = { fake, box: makeSandbox(fake) };
    use(current.fake, current.box);
  });
  afterEach(async () => {
    if (!current) return;
    await current.fake.close();
    current.box.cleanup();
    current = null;
  });
}

/**
 * Trusts the sandbox's project as `gatehouse trust set PROJECT --scope directory` does, with the same store writing
 * the same trust.json, in this process: for tests about what trust enables, not about the trust command (its own
 * tests run it: test/unit/trust/trust-cli.test.ts); one CLI process less per test.
 */
export async function trustProject(box: Sandbox): Promise<void> {
  const status = await new TrustStore({ configDir: box.configDir, env: box.env }).set(box.project, 'directory');
  expect(status.trusted, status.reason).toBe(true);
}

/**
 * Per test: a fresh loopback model, a temp sandbox whose project is trusted (`trustProject`), and a fresh folder `/var/tmp/PREFIX*` outside the project and outside the sandbox's private /tmp;
 * all torn down after. `use` receives them before each test.
 */
export function withTrustedProject(
  outsidePrefix: string,
  use: (fake: FakeAnthropic, box: Sandbox, outside: string) => void,
): void {
  let current: { fake: FakeAnthropic; box: Sandbox; outside: string } | null = null;
  beforeEach(async () => {
    const fake = await startFakeAnthropic();
    current = { fake, box: makeSandbox(fake), outside: fs.mkdtempSync(`/var/tmp/${outsidePrefix}`) };
    use(current.fake, current.box, current.outside);
    await trustProject(current.box);
  });
  afterEach(async () => {
    if (!current) return;
    await current.fake.close();
    current.box.cleanup();
    fs.rmSync(current.outside, { recursive: true, force: true });
    current = null;
  });
}

/**
 * Per test: the fake model and a fresh home and project (makeSandbox), handed to `use`; the `gatehouse rpc` clients the
 * test pushes into the returned list are killed after it, then the model closes and the folders go.
 */
export function withModelSandbox(use: (fake: FakeAnthropic, box: Sandbox) => void): RpcClient[] {
  const clients: RpcClient[] = [];
  let current: { fake: FakeAnthropic; box: Sandbox } | null = null;
  beforeEach(async () => {
    const fake = await startFakeAnthropic();
    current = { fake, box: makeSandbox(fake) };
    use(current.fake, current.box);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    if (!current) return;
    await current.fake.close();
    current.box.cleanup();
    current = null;
  });
  return clients;
}

/** User settings that trust every project. */
export const TRUST_ALL = 'trust:\n  default: trust\n';

export interface AppDirs {
  root: string;
  /** `root/project` and `root/config`, both made empty. */
  project: string;
  configDir: string;
}

/** A fresh realpath'd temp root with a project and a config dir; `settings` (if given) goes to config/settings.yaml. */
export function makeAppDirs(prefix: string, settings?: string): AppDirs {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const project = path.join(root, 'project');
  const configDir = path.join(root, 'config');
  fs.mkdirSync(project);
  fs.mkdirSync(configDir);
  if (settings !== undefined) fs.writeFileSync(path.join(configDir, 'settings.yaml'), settings);
  return { root, project, configDir };
}

/**
 * The worker's and core's environment: PATH, HOME = `home`, the loopback model's key and URL, and the run's shared
 * code cache (codeCacheEnv).
 */
export function modelEnv(home: string, model: FakeAnthropic): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_API_KEY: model.apiKey,
    ANTHROPIC_BASE_URL: model.baseURL,
    ...codeCacheEnv(),
  };
}

/**
 * Starts the real worker process (out/main/worker.js) and an AppCore of `shell` on it, both with `env`; the worker also
 * gets the run's shared code cache (codeCacheEnv), as a user's workers share theirs.
 */
export async function startAppCore(
  shell: 'browser' | 'desktop',
  dirs: AppDirs,
  env: NodeJS.ProcessEnv,
): Promise<{ worker: WorkerSupervisor; core: AppCore }> {
  const worker = createNodeWorkerHost({ configDir: dirs.configDir, env: { ...env, ...codeCacheEnv() } });
  await worker.start();
  return { worker, core: new AppCore({ shell, worker, configDir: dirs.configDir, project: dirs.project, env }) };
}

export interface AppChat {
  readonly fake: FakeAnthropic;
  readonly root: string;
  readonly project: string;
  readonly configDir: string;
  readonly worker: WorkerSupervisor;
  readonly core: AppCore;
  /** Every event the core pushed to its one listener (a page) since the test began. */
  readonly events: ApiEvent[];
  /** The page goes away. */
  unsubscribe(): void;
  /** One API call through the same dispatch the socket and IPC use. */
  call(channel: string, payload?: unknown): Promise<unknown>;
  /** Another core the test made on these folders: its background writes are waited for too before they go. */
  track(core: AppCore): AppCore;
}

/**
 * A describe-level set-up for AppCore tests: one loopback model (key `apiKey`) for the file; per test a trusted
 * temp project, the real worker, an AppCore with one listener. Each test must consume exactly what it scripts.
 */
export function useAppChat(prefix: string, apiKey: string): AppChat {
  let fake: FakeAnthropic | undefined;
  let state:
    | {
        dirs: AppDirs;
        worker: WorkerSupervisor;
        core: AppCore;
        events: ApiEvent[];
        unsubscribe: () => void;
        others: AppCore[];
      }
    | undefined;
  const now = () => {
    if (!state) throw new Error('useAppChat: used outside a test');
    return state;
  };
  beforeAll(async () => {
    fake = await startFakeAnthropic({ apiKey });
  });
  afterAll(async () => fake?.close());
  beforeEach(async () => {
    const model = fake!;
    expect(model.pending()).toBe(0);
    const dirs = makeAppDirs(prefix, TRUST_ALL);
    const { worker, core } = await startAppCore('browser', dirs, modelEnv(dirs.root, model));
    const events: ApiEvent[] = [];
    state = { dirs, worker, core, events, unsubscribe: core.onEvent((e) => events.push(e)), others: [] };
  });
  afterEach(async () => {
    const s = now();
    s.unsubscribe();
    // As a shell quits: each core ends its chat session (its transcript closed) and finishes its background writes
    // (the recent projects list, trust's last-opened: one still under way would re-create the config folder after its
    // removal), then the worker stops.
    for (const core of [s.core, ...s.others]) await core.close();
    await s.worker.stop();
    await removeAfterWrites(s.dirs.root);
    state = undefined;
  });
  return {
    get fake() {
      if (!fake) throw new Error('useAppChat: used outside a test');
      return fake;
    },
    get root() {
      return now().dirs.root;
    },
    get project() {
      return now().dirs.project;
    },
    get configDir() {
      return now().dirs.configDir;
    },
    get worker() {
      return now().worker;
    },
    get core() {
      return now().core;
    },
    get events() {
      return now().events;
    },
    unsubscribe: () => now().unsubscribe(),
    call: (channel, payload = {}) => dispatchApi(now().core.handlers, channel, payload),
    track: (core) => {
      now().others.push(core);
      return core;
    },
  };
}
