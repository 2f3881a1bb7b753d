import path from 'node:path';
import type { Locator, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { writeLongSession } from '../../bench/ui/long-session';
import type { LongSession } from '../../bench/ui/long-session';
import { startStreamServer } from '../../bench/ui/stream-server';
import type { StreamServer } from '../../bench/ui/stream-server';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { resumeSession } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-transcript';
const MESSAGES = 5000;

interface Scroll {
  top: number;
  height: number;
  client: number;
  /** Pixels between the bottom of the viewport and the end of the content. */
  fromEnd: number;
}

const scrollOf = (log: Locator): Promise<Scroll> =>
  log.evaluate((el) => ({
    top: el.scrollTop,
    height: el.scrollHeight,
    client: el.clientHeight,
    fromEnd: el.scrollHeight - el.scrollTop - el.clientHeight,
  }));

/** Whether a row holding `text` is (at least partly) inside the log's viewport. */
const showsText = (log: Locator, text: string): Promise<boolean> =>
  log.evaluate((el, t) => {
    const box = el.getBoundingClientRect();
    return Array.from(el.querySelectorAll('.message-row')).some((row) => {
      const r = row.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom && (row.textContent ?? '').includes(t);
    });
  }, text);

/** Resolves after the page has painted twice: whatever a change of the content makes the view do is done by then. */
const afterRender = (log: Locator): Promise<void> =>
  log.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );

/**
 * `times` times: waits until the log's content has grown by 50 px, then until the view is at the end again (within
 * 10 px; a view that does not follow only gets further from it while the answer streams). Tied to the stream's
 * growth, not to a clock.
 */
async function followsGrowth(log: Locator, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const { height } = await scrollOf(log);
    await expect.poll(async () => (await scrollOf(log)).height, POLL).toBeGreaterThan(height + 50);
    await expect.poll(async () => (await scrollOf(log)).fromEnd, POLL).toBeLessThan(10);
  }
}

describe.skipIf(skipReason !== null)(
  `a 5,000-message transcript in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 120_000 },
  () => {
    let app: ChatApp<StreamServer>;
    let session: LongSession;
    useChatApp(
      {
        name: 'transcript',
        // Each answer streams for 60 s at 400 tokens/s: still growing whatever the load while the test scrolls; the
        // test stops it once it has seen what it needs.
        startModel: () => startStreamServer({ tokensPerSecond: 400, durationMs: 60_000, apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: async (dir, homeDir) => {
          session = await writeLongSession(homeDir, dir, MESSAGES);
        },
      },
      (started) => (app = started),
    );

    async function openPage(): Promise<{ page: Page; log: Locator; problems: string[] }> {
      const { page, problems } = await openChatPage(
        await app.newContext({ viewport: { width: 1100, height: 900 } }),
        app.web.url,
      );
      return { page, log: page.getByRole('log', { name: 'Conversation' }), problems };
    }

    it('opens at its newest message with far fewer rows than messages in the DOM; Home, End and PageUp scroll it; an expanded tool card re-measures', async () => {
      const { page, log, problems } = await openPage();
      // Resumed once the sidebar marks it as the open session.
      await resumeSession(page, /^Resume session/);
      await expect.poll(() => showsText(log, session.lastMarker), POLL).toBe(true);
      const rows = await log.locator('.message-row').count();
      expect(rows).toBeGreaterThan(0);
      expect(rows).toBeLessThan(100); // of about 5,000 entries
      expect(Number(await log.getAttribute('data-count'))).toBeGreaterThan(MESSAGES * 0.9);
      expect((await scrollOf(log)).fromEnd).toBeLessThan(10);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'transcript-5000-end.png') });

      // The keyboard: the log takes focus; Home goes to the first message, End back to the newest.
      await log.focus();
      await log.press('Home');
      await expect.poll(() => showsText(log, session.firstMarker), POLL).toBe(true);
      expect(await log.getByText(session.lastMarker).count()).toBe(0); // not even in the DOM
      expect((await scrollOf(log)).top).toBe(0);
      await log.press('PageDown');
      await expect.poll(async () => (await scrollOf(log)).top, POLL).toBeGreaterThan(200);
      await log.press('End');
      await expect.poll(() => showsText(log, session.lastMarker), POLL).toBe(true);
      await expect.poll(async () => (await scrollOf(log)).fromEnd, POLL).toBeLessThan(10);
      const atEnd = (await scrollOf(log)).top;
      await log.press('PageUp');
      await expect.poll(async () => atEnd - (await scrollOf(log)).top, POLL).toBeGreaterThan(200);

      // Expanding a tool card's output grows its row, and the rows after it move down instead of overlapping it.
      const card = log.getByTestId('tool-card').last();
      await card.scrollIntoViewIfNeeded();
      const rowOf = card.locator('xpath=ancestor::div[contains(@class, "message-row")]');
      const before = await rowOf.evaluate((row) => row.getBoundingClientRect().height);
      await card.locator('summary').first().click();
      await expect
        .poll(() => rowOf.evaluate((row) => row.getBoundingClientRect().height), POLL)
        .toBeGreaterThan(before);
      await expect
        .poll(
          () =>
            rowOf.evaluate((row) => {
              const next = row.nextElementSibling;
              return next ? next.getBoundingClientRect().top - row.getBoundingClientRect().bottom : 0;
            }),
          POLL,
        )
        .toBeGreaterThanOrEqual(-1);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'transcript-tool-expanded.png') });
      expect(problems).toEqual([]);
    });

    it('stays at the bottom while an answer streams, and stays put once the person scrolls up', async () => {
      const { page, log, problems } = await openPage();
      // Resumed once the sidebar marks it as the open session.
      await resumeSession(page, /^Resume session/);
      await expect.poll(() => showsText(log, session.lastMarker), POLL).toBe(true);
      // Read from the top, then send: the view jumps to the message just sent, and the answer streams in view.
      await log.focus();
      await log.press('Home');
      await expect.poll(() => showsText(log, session.firstMarker), POLL).toBe(true);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Explain it at length, please');
      await box.press('Enter');
      await page.getByTestId('chat-working').waitFor({ state: 'visible' });
      await expect.poll(() => showsText(log, 'Explain it at length, please'), POLL).toBe(true);

      // Pinned: while the answer grows, the view follows it (looked at each time the content has grown).
      const growing = log.getByTestId('assistant-message').last();
      await expect.poll(async () => ((await growing.textContent()) ?? '').length, POLL).toBeGreaterThan(1500);
      // The answer's height, each time it changes: it only grows, also when it becomes long (past 40 blocks its chunks
      // out of view skip layout) and its chunks above the view keep the height they had.
      await growing.locator('.md').evaluate((md) => {
        const heights: number[] = [];
        (window as unknown as { answerHeights: number[] }).answerHeights = heights;
        new ResizeObserver(() => heights.push(md.getBoundingClientRect().height)).observe(md);
      });
      await followsGrowth(log, 3);

      // The person scrolls up: the answer keeps growing below, and the view does not move.
      await log.hover();
      await page.mouse.wheel(0, -600);
      await expect.poll(async () => (await scrollOf(log)).fromEnd, POLL).toBeGreaterThan(300);
      const held = await scrollOf(log);
      await expect.poll(async () => (await scrollOf(log)).height, POLL).toBeGreaterThan(held.height + 100); // it streams on
      await afterRender(log);
      const later = await scrollOf(log);
      expect(Math.abs(later.top - held.top)).toBeLessThanOrEqual(2);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'transcript-scrolled-up-while-streaming.png') });

      // End pins it again, and it follows the stream from there.
      await log.focus();
      await log.press('End');
      await expect.poll(async () => (await scrollOf(log)).fromEnd, POLL).toBeLessThan(10);
      await followsGrowth(log, 2);
      await growing.locator('.md.md-long').waitFor({ timeout: 30_000 });
      await afterRender(log);
      const heights = await page.evaluate(() => (window as unknown as { answerHeights: number[] }).answerHeights);
      const shrinks = heights.slice(1).flatMap((h, i) => {
        const before = heights[i] ?? 0;
        return h < before - 1 ? [Math.round(before - h)] : [];
      });
      expect(shrinks, 'the answer got shorter while it streamed (px)').toEqual([]);
      // Stop the answer (it would stream for a minute): the run ends cancelled, without an error.
      await page.keyboard.press('Control+.');
      await page.getByTestId('chat-working').waitFor({ state: 'detached', timeout: 30_000 });
      expect(await page.locator('.msg-notice.error').count()).toBe(0);
      expect(problems).toEqual([]);
    });
  },
);
