import type { BrowserContext, Page } from 'playwright';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, processChromium } from './support/browser';
import { ContextPool, keptOrNewPage } from './support/context-pool';

// The e2e tests share browser contexts and pages (test/e2e/support/context-pool.ts): a test that asks for another
// window size, colour scheme or motion preference gets a kept context whose pages have exactly what it asked for, and
// a context option a page cannot take later (permissions) never shares one; no test finds another's local storage.
// Real Chromium.

const skipReason = chromiumSkipReason();
const ORIGIN = 'http://127.0.0.1:9';

/** Opens `origin/page` in `page` (answered here: nothing listens there) and reads what the page sees. */
async function look(context: BrowserContext, page: Page, origin = ORIGIN): Promise<Record<string, unknown>> {
  await context.route(`${origin}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><link rel="icon" href="data:,"><p>page</p>' }),
  );
  await page.goto(`${origin}/page`);
  return page.evaluate(() => ({
    width: innerWidth,
    height: innerHeight,
    dark: matchMedia('(prefers-color-scheme: dark)').matches,
    reduce: matchMedia('(prefers-reduced-motion: reduce)').matches,
  }));
}

describe.skipIf(skipReason !== null)(
  `the e2e tests' shared contexts${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const pool = new ContextPool(processChromium);
    afterAll(() => pool.closeAll());

    it("a kept context serves another size and colour scheme: its kept page and its new pages have the test's", async () => {
      const first = await pool.take({ viewport: { width: 800, height: 600 } });
      const page = await keptOrNewPage(first);
      expect(await look(first, page)).toEqual({ width: 800, height: 600, dark: false, reduce: true });
      await pool.recycle(ORIGIN);

      const second = await pool.take({ viewport: { width: 1000, height: 700 }, colorScheme: 'dark' });
      expect(second).toBe(first);
      const kept = await keptOrNewPage(second);
      expect(kept).toBe(page);
      expect(await look(second, kept)).toEqual({ width: 1000, height: 700, dark: true, reduce: true });
      const other = await second.newPage();
      expect(await look(second, other)).toEqual({ width: 1000, height: 700, dark: true, reduce: true });
      await pool.recycle(ORIGIN);
      expect(other.isClosed()).toBe(true);

      // Asked for nothing: Playwright's defaults, and the tests' less motion unless a test asks for it.
      const third = await pool.take({ reducedMotion: 'no-preference' });
      expect(third).toBe(first);
      expect(await look(third, await keptOrNewPage(third))).toEqual({
        width: 1280,
        height: 720,
        dark: false,
        reduce: false,
      });
      await pool.recycle(ORIGIN);
    });

    it("the app origin's local storage is emptied; another origin's, left by another page, makes its context go", async () => {
      const context = await pool.take({});
      const chat = await keptOrNewPage(context);
      await look(context, chat);
      await chat.evaluate(() => localStorage.setItem('left', 'by the chat page'));
      await pool.recycle(ORIGIN);
      expect(await pool.take({})).toBe(context);
      const kept = await keptOrNewPage(context);
      await look(context, kept);
      expect(await kept.evaluate(() => localStorage.getItem('left'))).toBeNull();

      const other = await context.newPage();
      await look(context, other, 'http://127.0.0.1:10');
      await other.evaluate(() => localStorage.setItem('left', 'by another page'));
      await pool.recycle(ORIGIN);
      expect(other.isClosed()).toBe(true);
      const next = await pool.take({});
      expect(next).not.toBe(context);
      const fresh = await keptOrNewPage(next);
      await look(next, fresh, 'http://127.0.0.1:10');
      expect(await fresh.evaluate(() => localStorage.getItem('left'))).toBeNull();
      await pool.recycle(ORIGIN);
    });

    it('a context made with other permissions is never shared', async () => {
      const plain = await pool.take({});
      await pool.recycle(ORIGIN);
      const allowed = await pool.take({ permissions: ['clipboard-read'] });
      expect(allowed).not.toBe(plain);
      await pool.recycle(ORIGIN);
      expect(await pool.take({})).toBe(plain);
      await pool.recycle(ORIGIN);
    });
  },
);
