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
  brokenBadgeWords,
  DESIGN_SHOTS,
  documentScrolls,
  fullyInViewport,
  horizontalOverflow,
  lightSelectsInDark,
  openView,
  seriousViolations,
  setTheme,
  sidebar,
  sidebarCollapsed,
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
        // Something on every page at every size: rules (one long), a hook with a long command, an MCP server.
        settings: [
          'trust:\n  default: trust',
          'permissions:\n  deny:\n    - Read(secrets/**)',
          `  allow:\n    - Bash(npm run lint:*)\n    - Read(${'very-long-folder-name/'.repeat(6)}**)`,
          'hooks:\n  PreToolUse:\n    - matcher: Bash',
          `      hooks:\n        - type: command\n          command: ${'./scripts/check-the-command-before-it-runs.sh '.repeat(3)}`,
          '',
        ].join('\n'),
        prepare: (dir) => {
          fs.writeFileSync(path.join(dir, 'notes.txt'), 'one\ntwo\n');
          const args = Array.from({ length: 8 }, (_, i) => `--option-number-${i}=some-value`);
          fs.writeFileSync(
            path.join(dir, '.mcp.json'),
            JSON.stringify({ mcpServers: { 'a-server-with-a-long-name': { command: 'node', args } } }),
          );
        },
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

    it('composer and transcript fit the window at 1280×800 and 720×700; the document never scrolls; only the transcript does', async () => {
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

    // Every view the sidebar lists (a page added later is checked too), at both sizes and in both themes: nothing
    // scrolls sideways, no badge breaks a word, axe finds nothing serious. At 720 px the sidebar starts collapsed (the
    // window is narrow); the project switcher expands it, so the dark pass there checks the expanded sidebar.
    for (const size of SIZES)
      it(
        `every view at ${size.width}×${size.height}, light and dark: no sideways scrolling, no broken badge, no serious axe violation; screenshots saved`,
        { timeout: 300_000 },
        async () => {
          fs.mkdirSync(DESIGN_SHOTS, { recursive: true });
          const found: string[] = [];
          const check = async (page: Page, label: string): Promise<void> => {
            if (label.includes('-dark'))
              for (const s of await lightSelectsInDark(page)) found.push(`${label}: light select: ${s}`);
            for (const v of await seriousViolations(page)) found.push(`${label}: ${v}`);
            for (const o of await horizontalOverflow(page)) found.push(`${label}: scrolls sideways: ${o}`);
            for (const b of await brokenBadgeWords(page)) found.push(`${label}: badge word broken: ${b}`);
          };
          const { page, problems } = await openChatPage(await app.newContext({ viewport: size }), app.web.url);
          const views = await sidebar(page).getByRole('list', { name: 'Views' }).getByRole('button').allInnerTexts();
          expect(views.map((v) => v.trim())).toEqual(expect.arrayContaining(['Chat', 'Rules', 'Hooks', 'Audit log']));
          for (const theme of ['light', 'dark'] as const) {
            await setTheme(page, theme);
            const collapsed = size.width < 960 && theme === 'light';
            expect(await sidebarCollapsed(page)).toBe(collapsed);
            const shot = `${size.width}x${size.height}-${theme}${size.width < 960 ? (collapsed ? '-collapsed' : '-expanded') : ''}`;
            for (const view of views.map((v) => v.trim())) {
              await openView(page, view);
              await page.getByRole('main').getByRole('heading', { level: 2 }).first().waitFor();
              if (view === 'Audit log') await page.getByTestId('audit-count').waitFor();
              if (view === 'Rules') await page.getByRole('heading', { name: 'Add a rule' }).waitFor();
              if (view === 'Hooks') await page.getByTestId('hook-row').first().waitFor();
              if (view === 'MCP servers') await page.getByTestId('mcp-row').first().waitFor();
              expect(await documentScrolls(page)).toEqual({ vertical: false, horizontal: false });
              const name = `${view.toLowerCase().replace(/ /g, '-')}-${shot}`;
              await page.screenshot({ path: path.join(DESIGN_SHOTS, `${name}.png`) });
              await check(page, name);
            }
            // The project switcher open, and Help › About (a dialog).
            await openView(page, 'Chat');
            await sidebar(page)
              .getByRole('button', { name: /^Switch project/ })
              .click();
            await sidebar(page).getByRole('button', { name: 'Close project list' }).waitFor();
            await page.screenshot({ path: path.join(DESIGN_SHOTS, `switcher-${shot}.png`) });
            await check(page, `switcher-${shot}`);
            await sidebar(page).getByRole('button', { name: 'Close project list' }).click();
            await sidebar(page)
              .getByRole('button', { name: /About Gatehouse/ })
              .click();
            const about = page.getByRole('dialog', { name: 'About Gatehouse' });
            await expect.poll(() => about.getByTestId('live-worker-pid').textContent(), POLL).toMatch(/^\d+$/);
            await page.screenshot({ path: path.join(DESIGN_SHOTS, `about-${shot}.png`) });
            await check(page, `about-${shot}`);
            await page.keyboard.press('Escape');
            await about.waitFor({ state: 'detached' });
          }
          expect(problems).toEqual([]);
          expect(found).toEqual([]);
        },
      );

    it('the sidebar collapses to icons and expands again by keyboard, keeps the choice across a reload, and its icons keep their names', async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[1] }), app.web.url);
      const nav = sidebar(page);
      const views = nav.getByRole('list', { name: 'Views' });
      // 720 px: collapsed until the person chooses. Every view is still a button named by its words, with a tooltip.
      expect(await sidebarCollapsed(page)).toBe(true);
      expect(await views.getByRole('button', { name: 'Audit log', exact: true }).getAttribute('title')).toBe(
        'Audit log',
      );
      expect(await nav.getByText('Recent projects').count()).toBe(0);
      const mainWidth = async (): Promise<number> => (await page.getByRole('main').boundingBox())?.width ?? 0;
      const narrowMain = await mainWidth();
      // Tab from the top of the page reaches the toggle first; Enter expands.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Tab');
      const expand = nav.getByRole('button', { name: 'Expand sidebar' });
      expect(await expand.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await expand.getAttribute('aria-keyshortcuts')).toContain('Control+B');
      await page.keyboard.press('Enter');
      await expect.poll(() => sidebarCollapsed(page), POLL).toBe(false);
      expect(await mainWidth()).toBeLessThan(narrowMain);
      // The focus stays on the toggle, now named for what it does next; Space collapses.
      const collapse = nav.getByRole('button', { name: 'Collapse sidebar' });
      expect(await collapse.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await horizontalOverflow(page)).toEqual([]);
      await page.keyboard.press('Space');
      await expect.poll(() => sidebarCollapsed(page), POLL).toBe(true);
      // Ctrl+B from the message box expands it; the choice outlives a reload.
      await page.getByRole('textbox', { name: 'Message' }).focus();
      await page.keyboard.press('Control+b');
      await expect.poll(() => sidebarCollapsed(page), POLL).toBe(false);
      await page.reload();
      await page.getByRole('textbox', { name: 'Message' }).waitFor();
      expect(await sidebarCollapsed(page)).toBe(false);
      // At 1280 px the same choice holds the other way: collapsed by the person, collapsed after a reload.
      await page.setViewportSize(SIZES[0]);
      await nav.getByRole('button', { name: 'Collapse sidebar' }).press('Enter');
      await expect.poll(() => sidebarCollapsed(page), POLL).toBe(true);
      await page.reload();
      await page.getByRole('textbox', { name: 'Message' }).waitFor();
      expect(await sidebarCollapsed(page)).toBe(true);
      await openView(page, 'Hooks');
      await page.getByTestId('hook-row').first().waitFor();
      expect(await horizontalOverflow(page)).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('the shell (sidebar, a disabled message box) is drawn before any script runs, where the app then draws its own', async () => {
      for (const size of SIZES) {
        const context = await app.newContext({ viewport: size, javaScriptEnabled: false });
        const page = await context.newPage();
        await page.goto(app.web.url);
        const shellBox = page.getByRole('textbox', { name: 'Message' });
        expect(await shellBox.isVisible()).toBe(true);
        expect(await shellBox.isDisabled()).toBe(true);
        expect(await sidebar(page).isVisible()).toBe(true);
        const before = await page.locator('form').boundingBox();
        const nav = await sidebar(page).boundingBox();
        await page.close();
        const { page: live, problems } = await openChatPage(await app.newContext({ viewport: size }), app.web.url);
        // The app replaced the shell: one message box, its own, with the same sides and its bottom as low (give or
        // take a second line of the status bar under it: the app's height depends on what it shows); the sidebar as
        // wide.
        expect(await live.getByRole('textbox', { name: 'Message' }).count()).toBe(1);
        const after = await live.locator('form.composer').boundingBox();
        if (!after || !before) throw new Error('no message box on screen');
        expect(Math.abs(after.x - before.x)).toBeLessThan(3);
        expect(Math.abs(after.x + after.width - (before.x + before.width))).toBeLessThan(3);
        expect(Math.abs(after.y + after.height - (before.y + before.height))).toBeLessThan(30);
        expect((await sidebar(live).boundingBox())?.width).toBe(nav?.width);
        expect(problems).toEqual([]);
      }
    });

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
