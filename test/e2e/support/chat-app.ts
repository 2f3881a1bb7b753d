import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { processChromium } from './browser';
import { ContextPool, keptOrNewPage } from './context-pool';
import { makeTempDir, removeTempDir, REPO_ROOT, requireBuiltApp, startWeb } from './start-web';
import type { RunningWeb } from './start-web';

/** Where the e2e tests save their screenshots (made by `startChatApp`). */
export const SCREENSHOTS = path.join(REPO_ROOT, 'test-results/e2e');
export const POLL = { timeout: 20_000, interval: 100 };
/** User settings that trust every project, so no trust prompt covers the chat (trust.e2e.test.ts covers the prompt). */
export const TRUST_ALL = 'trust:\n  default: trust\n';

/** A loopback model server (the fake Anthropic API or the bench's stream server). */
export interface ModelServer {
  baseURL: string;
  close(): Promise<void>;
}

export interface ChatApp<M extends ModelServer> {
  model: M;
  web: RunningWeb;
  /** This worker's connection to the run's Chromium (processChromium): not the app's to close. */
  browser: Browser;
  /** Fresh temp dirs: the open project and the server's home (GATEHOUSE_HOME and HOME). */
  project: string;
  home: string;
  /** A browser context made with `options`: a kept one when one is free (see ContextPool), else a new one. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Closes every context of the pool, the ones kept from earlier tests and files too. */
  closeContexts(): Promise<void>;
  /**
   * After a test: each context `newContext` made is kept for the next test that asks for one with the same options,
   * reset (see ContextPool); its one chat page is kept too, navigated off the app (its socket closes, as a closed page's
   * does). A fresh context and page cost Chromium ~2.7 s of CPU; a kept page loading the app again ~1 s.
   */
  recycleContexts(): Promise<void>;
  /**
   * Recycles the contexts still in use (they stay for the next file's app), stops the server and the model, removes
   * the temp dirs and puts the environment back.
   */
  stop(): Promise<void>;
}

type Started<M extends ModelServer> = Omit<ChatApp<M>, 'newContext' | 'closeContexts' | 'recycleContexts' | 'stop'>;

export interface ChatAppOptions<M extends ModelServer> {
  /** Names the temp dirs: `gh-e2e-NAME-` and `gh-e2e-NAME-home-`. */
  name: string;
  startModel: () => Promise<M>;
  /**
   * Environment for the server (startWeb passes this process's environment on), set before it starts and restored
   * by `stop`; undefined removes a variable. ANTHROPIC_BASE_URL is always the model's URL.
   */
  env: Record<string, string | undefined>;
  /** The home's settings.yaml; TRUST_ALL unless given. */
  settings?: string;
  /** Runs once the project and home exist, before the server starts. */
  prepare?: (project: string, home: string) => unknown;
}

/**
 * The contexts of every chat app of this Vitest worker: the files it runs one after the other take turns with them
 * (each recycles the ones it took after each test, and when it stops).
 */
const contexts = new ContextPool(processChromium);

/**
 * The port of this worker's last chat app: the next file's app asks for it again (another port when it is taken), so
 * the kept contexts load the app from the origin whose HTTP cache and compiled code they already have. Measured per
 * first load of the app in a kept context at a new origin: ~60 ms of Chromium CPU parsing the bundle again, then
 * compiling its code cache again on the next load. Nothing else of an origin outlives a test: see ContextPool.recycle.
 */
let lastPort: number | null = null;

async function startWebOnLastPort(project: string, home: string): Promise<RunningWeb> {
  if (lastPort !== null) {
    const again = await startWeb({ project, home, args: ['--port', String(lastPort)] }).catch(() => null);
    if (again) return again;
  }
  const web = await startWeb({ project, home });
  lastPort = web.port;
  return web;
}

/** The model, `gatehouse web` on a fresh project and home, and Chromium: what a chat e2e test starts from. */
export async function startChatApp<M extends ModelServer>(options: ChatAppOptions<M>): Promise<ChatApp<M>> {
  requireBuiltApp();
  const env: Record<string, string | undefined> = { ...options.env };
  const saved = new Map<string, string | undefined>();
  const started: Partial<Started<M>> = {};
  const closeContexts = (): Promise<void> => contexts.closeAll();
  const newContext = (contextOptions?: BrowserContextOptions): Promise<BrowserContext> => contexts.take(contextOptions);
  const recycleContexts = (): Promise<void> => contexts.recycle(started.web?.origin ?? null);
  const stop = async (): Promise<void> => {
    await recycleContexts();
    await started.web?.stop();
    await started.model?.close();
    for (const dir of [started.project, started.home]) if (dir) removeTempDir(dir);
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  try {
    started.model = await options.startModel();
    started.project = makeTempDir(`gh-e2e-${options.name}-`);
    started.home = makeTempDir(`gh-e2e-${options.name}-home-`);
    fs.writeFileSync(path.join(started.home, 'settings.yaml'), options.settings ?? TRUST_ALL);
    await options.prepare?.(started.project, started.home);
    env.ANTHROPIC_BASE_URL = started.model.baseURL;
    for (const [name, value] of Object.entries(env)) {
      saved.set(name, process.env[name]);
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    started.web = await startWebOnLastPort(started.project, started.home);
    started.browser = await processChromium();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    return { ...(started as Started<M>), newContext, closeContexts, recycleContexts, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * For a describe block: starts the app before its tests (`use` receives it), recycles the contexts it made after each
 * test (closed, or reset for the next test: see ContextPool), and stops it after all of them.
 */
export function useChatApp<M extends ModelServer>(options: ChatAppOptions<M>, use: (app: ChatApp<M>) => void): void {
  let app: ChatApp<M> | undefined;
  beforeAll(async () => {
    app = await startChatApp(options);
    use(app);
  });
  afterEach(async () => {
    await app?.recycleContexts();
  });
  afterAll(async () => {
    await app?.stop();
  });
}

export interface WatchedPage {
  page: Page;
  /** Page errors, and console messages of the watched types. */
  problems: string[];
  /** Every socket frame the page received. */
  frames: string[];
}

/**
 * A new page of `context` (15 s default timeout) at `url`, watched for page errors and console messages of
 * `consoleTypes`; resolves once the message box is enabled.
 */
export async function openChatPage(
  context: BrowserContext,
  url: string,
  consoleTypes: readonly string[] = ['error', 'warning'],
): Promise<WatchedPage> {
  context.setDefaultTimeout(15_000);
  const page = await keptOrNewPage(context);
  const problems: string[] = [];
  const frames: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (consoleTypes.includes(msg.type())) problems.push(`console: ${msg.text()}`);
  });
  page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
  await page.goto(url);
  await expect.poll(() => page.getByRole('textbox', { name: 'Message' }).isEnabled(), POLL).toBe(true);
  return { page, problems, frames };
}

/**
 * Waits until an approval dialog's answers count (they are inert for a moment after it appears or its call changes,
 * so a click meant for the previous one lands nowhere): its buttons' `data-ready` turns true.
 */
export async function waitUntilAnswerable(dialog: Locator): Promise<void> {
  await dialog.locator('.approval-actions[data-ready="true"]').waitFor({ state: 'attached' });
}
