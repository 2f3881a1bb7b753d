import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright';

// Browser contexts and chat pages kept from one test to the next, and from one file to the next of a Vitest worker. A
// new context and page cost Chromium ~2.7 s of CPU (a renderer process starts, then another one for the app's site);
// loading the app again in a kept page, in its warm renderer, ~1 s. The next file's app is served on the same port when
// it is free (see startChatApp), else on another: the same site (127.0.0.1) either way, so a kept page keeps its
// renderer. What a test could leave behind is put back or, when it cannot be, the context is not kept: nothing of one
// test reaches the next (cookies, permissions and routes cleared; local storage emptied, or the context closed).

/** The chat page `openChatPage` last opened in a context. */
const chatPages = new WeakMap<BrowserContext, Page>();
/** Chat pages a recycle made ready for the next test's `openChatPage`. */
const released = new WeakSet<Page>();
/** Chat pages that were changed in a lasting way (LASTING_CHANGES): their context is not kept. */
const changedPages = new WeakSet<Page>();

/** The page events the tests listen to: a kept page starts the next test with none of the last test's listeners. */
const PAGE_EVENTS = [
  'pageerror',
  'console',
  'websocket',
  'dialog',
  'request',
  'requestfailed',
  'requestfinished',
  'response',
  'popup',
  'download',
  'filechooser',
  'framenavigated',
  'load',
  'domcontentloaded',
] as const;

/** The context events the tests listen to: a kept context starts the next test with none of these listeners. */
const CONTEXT_EVENTS = [
  'page',
  'console',
  'dialog',
  'request',
  'requestfailed',
  'requestfinished',
  'response',
  'weberror',
] as const;

/** Calls after which a context or page cannot be put back as it was: such a context is closed, not kept. */
const LASTING_CHANGES = [
  'addInitScript',
  'exposeBinding',
  'exposeFunction',
  'setExtraHTTPHeaders',
  'setGeolocation',
  'setOffline',
  'setHTTPCredentials',
  'routeFromHAR',
  'routeWebSocket',
] as const;

/** Records `page` as the chat page of `context` (openChatPage). */
function keepPage(context: BrowserContext, page: Page): void {
  if (chatPages.get(context) !== page) markLastingChanges(page, () => changedPages.add(page));
  chatPages.set(context, page);
}

/** The context's chat page when a recycle made it ready for reuse (once); else undefined. */
function takeKeptPage(context: BrowserContext): Page | undefined {
  const page = chatPages.get(context);
  if (!page || !released.has(page) || page.isClosed()) return undefined;
  released.delete(page);
  return page;
}

/**
 * A page for a test of a file whose `pool` is recycled after each test: the page a recycle kept in a free context made
 * with `options`, else a new one (in a new context when none is free); kept in turn for the next test.
 */
export async function pooledPage(pool: ContextPool, options: BrowserContextOptions = {}): Promise<Page> {
  return keptOrNewPage(await pool.take(options));
}

/** The page a recycle kept in `context`, else a new one; recorded as the context's page for the next test. */
export async function keptOrNewPage(context: BrowserContext): Promise<Page> {
  const page = takeKeptPage(context) ?? (await context.newPage());
  keepPage(context, page);
  return page;
}

/** Replaces the methods in LASTING_CHANGES of `target` with ones that call `tainted` first. */
function markLastingChanges(target: BrowserContext | Page, tainted: () => void): void {
  const methods = target as unknown as Record<string, unknown>;
  for (const name of LASTING_CHANGES) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    methods[name] = (...args: unknown[]): unknown => {
      tainted();
      return (original as (...a: unknown[]) => unknown).apply(target, args);
    };
  }
}

/**
 * What a context gets unless the test asks otherwise: less motion, as a person can ask for (the app stops its spinner
 * and the approval dialog's arming bar), so nothing redraws 60 times a second while an agent works. Measured over all the
 * e2e files, one run each way: Chromium CPU 296 -> 276 s. A test about the motion itself asks for no preference.
 */
const CONTEXT_DEFAULTS: BrowserContextOptions = { reducedMotion: 'reduce' };

/**
 * The options a page can be given after its context was made (emulateMedia, setViewportSize), with Playwright's
 * values when unset: they are not part of a context's key. A kept context asked for other ones gets them on its pages
 * (the kept chat page, each page `newPage` opens), so tests that differ only in window size or colour scheme share
 * contexts.
 */
interface PageLook {
  /** Null: the window's own size (a page cannot be given that later: such contexts serve only each other). */
  viewport: { width: number; height: number } | null;
  colorScheme: 'light' | 'dark' | 'no-preference';
  reducedMotion: 'reduce' | 'no-preference';
  forcedColors: 'active' | 'none';
}

/** `options` as the key of the contexts that can serve them, and the look their pages are given. */
function splitOptions(options: BrowserContextOptions): { key: string; look: PageLook } {
  const { viewport, colorScheme, reducedMotion, forcedColors, ...fixed } = options;
  const look: PageLook = {
    viewport: viewport === undefined ? { width: 1280, height: 720 } : viewport,
    colorScheme: colorScheme ?? 'light',
    reducedMotion: reducedMotion ?? 'no-preference',
    forcedColors: forcedColors ?? 'none',
  };
  return { key: JSON.stringify({ ...fixed, ownSize: viewport === null }), look };
}

async function applyLook(page: Page, look: PageLook): Promise<void> {
  await page.emulateMedia({
    media: null,
    colorScheme: look.colorScheme,
    reducedMotion: look.reducedMotion,
    forcedColors: look.forcedColors,
  });
  const now = page.viewportSize();
  if (look.viewport && (now?.width !== look.viewport.width || now.height !== look.viewport.height))
    await page.setViewportSize(look.viewport);
}

interface Entry {
  context: BrowserContext;
  key: string;
  /** The look the context was made with. */
  made: PageLook;
  /** The look its current test asked for: its new pages get it. */
  look: PageLook;
  inUse: boolean;
  tainted: boolean;
}

/** Contexts of a chat app: `take` gives a free one that can serve the options (see PageLook), or a new one. */
export class ContextPool {
  private readonly entries: Entry[] = [];

  constructor(private readonly browser: () => Browser | Promise<Browser>) {}

  async take(given: BrowserContextOptions = {}): Promise<BrowserContext> {
    const options = { ...CONTEXT_DEFAULTS, ...given };
    const { key, look } = splitOptions(options);
    const browser = await this.browser();
    // A context of a connection that was lost is gone (its entry too, once its close event came).
    const free = this.entries.find((e) => !e.inUse && e.key === key && e.context.browser() === browser);
    if (free) {
      free.inUse = true;
      free.look = look;
      const chat = chatPages.get(free.context);
      if (chat && released.has(chat) && !chat.isClosed()) await applyLook(chat, look);
      return free.context;
    }
    const context = await browser.newContext(options);
    const entry: Entry = { context, key, made: look, look, inUse: true, tainted: false };
    markLastingChanges(context, () => (entry.tainted = true));
    // A page the test opens gets the look its test asked for (a popup the page opens has the context's own).
    const newPage = context.newPage.bind(context);
    context.newPage = async () => {
      const page = await newPage();
      if (entry.look !== entry.made) await applyLook(page, entry.look);
      return page;
    };
    context.on('close', () => {
      const at = this.entries.indexOf(entry);
      if (at !== -1) this.entries.splice(at, 1);
    });
    this.entries.push(entry);
    return context;
  }

  /**
   * After a test: every context it took is either closed (something lasting was changed in it, its chat page was
   * changed in such a way, or `origin` is unknown) or made ready for the next test: its other pages closed, its
   * listeners, permissions, cookies and routes cleared, and its chat page emptied (storage cleared, navigated to a
   * page of `origin` that is not the app: the app's document and its socket go, as they would with the page); the next
   * test that takes it gives the page the look it asks for.
   */
  async recycle(origin: string | null): Promise<void> {
    for (const entry of this.entries.filter((e) => e.inUse)) {
      const chat = chatPages.get(entry.context);
      if (entry.tainted || !origin || (chat && changedPages.has(chat))) {
        await entry.context.close();
        continue;
      }
      try {
        for (const page of entry.context.pages()) if (page !== chat) await page.close();
        for (const event of CONTEXT_EVENTS) await entry.context.removeAllListeners(event, { behavior: 'ignoreErrors' });
        await entry.context.clearPermissions();
        await entry.context.clearCookies();
        await entry.context.unrouteAll({ behavior: 'ignoreErrors' });
        if (chat && !chat.isClosed()) await resetPage(chat, origin);
        // Storage a page other than the chat page left (it is closed; its origin's local storage stays): not kept.
        const { origins } = await entry.context.storageState();
        if (origins.some((o) => o.localStorage.length > 0)) {
          await entry.context.close();
          continue;
        }
        if (chat && !chat.isClosed()) released.add(chat);
        entry.inUse = false;
      } catch {
        await entry.context.close().catch(() => undefined);
      }
    }
  }

  async closeAll(): Promise<void> {
    for (const entry of this.entries.splice(0)) await entry.context.close();
  }
}

async function resetPage(page: Page, origin: string): Promise<void> {
  for (const event of PAGE_EVENTS) await page.removeAllListeners(event, { behavior: 'ignoreErrors' });
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  // Storage can be cleared only from a page of its origin: a page the test took elsewhere is not kept.
  if (!page.url().startsWith(`${origin}/`)) throw new Error(`the chat page left ${origin}: not kept`);
  await page.evaluate(() => {
    sessionStorage.clear();
    localStorage.clear();
  });
  // A page of the same site, so the renderer stays; not the app, so no socket. Answered here (with an icon, or the
  // browser asks the server for /favicon.ico and reports the 404 as a console error, into the next test).
  const between = `${origin}/e2e-between-tests`;
  await page.route(between, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><link rel="icon" href="data:,"><title>-</title>' }),
  );
  await page.goto(between);
  await page.unrouteAll();
}
