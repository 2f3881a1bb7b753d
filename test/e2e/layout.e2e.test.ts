import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import {
  DESIGN_SHOTS,
  documentScrolls,
  fullyInViewport,
  openView,
  seriousViolations,
  setTheme,
  sidebar,
  SIZES,
} from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-layout';

describe.skipIf(skipReason !== null)(
  `the chat-first layout in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let fake: FakeAnthropic;
    useChatApp(
      {
        name: 'layout',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        settings: 'trust:\n  default: trust\npermissions:\n  deny:\n    - Read(secrets/**)\n',
        prepare: (dir) => fs.writeFileSync(path.join(dir, 'notes.txt'), 'one\ntwo\n'),
      },
      (started) => {
        app = started;
        fake = started.model;
      },
    );

    /** A conversation long enough to scroll: several answers, a tool call the engine allowed and one denied. */
    async function fillConversation(page: Page): Promise<void> {
      const long = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');
      fake.enqueue(
        reply(text('Reading the notes.'), toolUse('toolu_l1', 'read_file', { path: 'notes.txt' })),
        reply(toolUse('toolu_l2', 'read_file', { path: 'secrets/key.txt' })),
        reply(text(long)),
      );
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Summarise the notes');
      await box.press('Enter');
      // The run took every scripted answer, then ended (the indicator alone is also absent before the run starts).
      await expect.poll(() => fake.pending(), POLL).toBe(0);
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      await expect.poll(() => page.getByTestId('assistant-message').count(), POLL).toBeGreaterThan(1);
    }

    it('composer and transcript fit the window at 1280×800 and 1024×700; the document never scrolls; only the transcript does', async () => {
      for (const size of SIZES) {
        const { page, problems } = await openChatPage(await app.newContext({ viewport: size }), app.web.url);
        if (size.width === 1280) await fillConversation(page);
        await expect.poll(() => page.getByTestId('assistant-message').count(), POLL).toBeGreaterThan(1);
        const log = page.getByRole('log', { name: 'Conversation' });
        const composer = page.getByRole('textbox', { name: 'Message' });
        expect(await fullyInViewport(page, composer)).toBe(true);
        expect(await fullyInViewport(page, page.getByRole('button', { name: 'Send', exact: true }))).toBe(true);
        expect(await fullyInViewport(page, log)).toBe(true);
        expect(await fullyInViewport(page, sidebar(page))).toBe(true);
        expect(await documentScrolls(page)).toEqual({ vertical: false, horizontal: false });
        // The transcript is the one that scrolls: taller content than its box, and the wheel moves it alone.
        const { scrollHeight, clientHeight } = await log.evaluate((el) => ({
          scrollHeight: el.scrollHeight,
          clientHeight: el.clientHeight,
        }));
        expect(scrollHeight).toBeGreaterThan(clientHeight);
        // The log takes most of the height.
        expect(clientHeight).toBeGreaterThan(size.height * 0.45);
        await log.hover();
        await page.mouse.wheel(0, -400);
        await expect
          .poll(() => log.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop), POLL)
          .toBeGreaterThan(100);
        expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollTop)).toBe(0);
        expect(await fullyInViewport(page, composer)).toBe(true);
        // The status bar: trust, sandbox, worker, tokens.
        const status = page.getByRole('group', { name: 'Status' });
        expect(await status.getByRole('button', { name: /^Project trust:/ }).count()).toBe(1);
        expect(await status.getByTestId('sandbox-state').textContent()).toMatch(/^Sandbox: /);
        await expect.poll(() => status.getByTestId('worker-status').textContent(), POLL).toMatch(/^Worker ready/);
        // The page that ran the conversation shows this run's tokens; every page shows the session's.
        if (size.width === 1280)
          expect(await status.getByTestId('token-usage').textContent()).toMatch(
            /^Tokens: [\d,]+ in · [\d,]+ out this run$/,
          );
        await expect.poll(() => status.innerText(), POLL).toMatch(/[\d,]+ in · [\d,]+ out this session/);
        expect(problems).toEqual([]);
      }
    });

    // axe judges what the views contain (names, roles, each theme's contrast), which the window size does not change:
    // it runs at the first size; every size gets the screenshots and the check that the document does not scroll.
    for (const [index, size] of SIZES.entries())
      it(
        `every view at ${size.width}×${size.height}, light and dark: screenshots saved, the document does not scroll${index === 0 ? '; no serious or critical axe violations' : ''}`,
        { timeout: 300_000 },
        async () => {
          fs.mkdirSync(DESIGN_SHOTS, { recursive: true });
          const found: string[] = [];
          const axe = async (page: Page, label: string): Promise<void> => {
            if (index === 0) for (const v of await seriousViolations(page)) found.push(`${label}: ${v}`);
          };
          const views = [
            'Chat',
            'Rules',
            'Hooks',
            'MCP servers',
            'Skills & sub-agents',
            'Trusted folders',
            'Audit log',
            'Settings',
          ];
          {
            const { page, problems } = await openChatPage(await app.newContext({ viewport: size }), app.web.url);
            for (const theme of ['light', 'dark'] as const) {
              await setTheme(page, theme);
              for (const view of views) {
                await openView(page, view);
                await page.getByRole('main').getByRole('heading', { level: 2 }).first().waitFor();
                if (view === 'Audit log') await page.getByTestId('audit-count').waitFor();
                if (view === 'Rules') await page.getByRole('heading', { name: 'Add a rule' }).waitFor();
                expect(await documentScrolls(page)).toEqual({ vertical: false, horizontal: false });
                const name = `${view.toLowerCase().replace(/ /g, '-')}-${size.width}x${size.height}-${theme}`;
                await page.screenshot({ path: path.join(DESIGN_SHOTS, `${name}.png`) });
                await axe(page, name);
              }
              // The project switcher open, and Help › About (a dialog).
              await openView(page, 'Chat');
              await sidebar(page).getByRole('button', { name: 'Switch project' }).click();
              await page.screenshot({
                path: path.join(DESIGN_SHOTS, `switcher-${size.width}x${size.height}-${theme}.png`),
              });
              await axe(page, `switcher-${theme}`);
              await sidebar(page).getByRole('button', { name: 'Close project list' }).click();
              await sidebar(page)
                .getByRole('button', { name: /About Gatehouse/ })
                .click();
              const about = page.getByRole('dialog', { name: 'About Gatehouse' });
              await expect.poll(() => about.getByTestId('live-worker-pid').textContent(), POLL).toMatch(/^\d+$/);
              await page.screenshot({
                path: path.join(DESIGN_SHOTS, `about-${size.width}x${size.height}-${theme}.png`),
              });
              await axe(page, `about-${theme}`);
              await page.keyboard.press('Escape');
              await about.waitFor({ state: 'detached' });
            }
            expect(problems).toEqual([]);
          }
          expect(found).toEqual([]);
        },
      );

    it('the approval dialog passes axe in both themes', async () => {
      fake.enqueue(
        reply(toolUse('toolu_l3', 'write_file', { path: 'notes.txt', content: 'one\ntwo\nthree\n' })),
        reply(text('Written.')),
      );
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Add a line');
      await box.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await waitUntilAnswerable(dialog);
      const found: string[] = [];
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await page.screenshot({ path: path.join(DESIGN_SHOTS, `approval-1280x800-${theme}.png`) });
        for (const v of await seriousViolations(page)) found.push(`${theme}: ${v}`);
      }
      await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      expect(found).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('the axe check is real: an unnamed button and grey-on-white text in the page are reported', async () => {
      const { page } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await page.evaluate(() => {
        const probe = document.createElement('div');
        probe.id = 'axe-probe';
        // On top of the app, in view: axe cannot judge the contrast of text it cannot see.
        probe.style.cssText = 'position:fixed;top:0;left:0;z-index:99999;background:#fff;padding:8px';
        // The page enforces Trusted Types (no innerHTML): built node by node.
        probe.append(document.createElement('button'));
        const faint = document.createElement('p');
        faint.textContent = 'faint text';
        faint.style.cssText = 'color:#ccc;background:#fff;font-size:12px';
        probe.append(faint);
        document.body.append(probe);
      });
      const found = await seriousViolations(page, '#axe-probe');
      expect(found.map((v) => v.split(' ')[0]).sort()).toEqual(['button-name', 'color-contrast']);
    });
  },
);
