import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, sentCredential, startFakeAnthropic, text } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, TRUST_ALL, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import type { RunningWeb } from './support/start-web';

// The Settings page in Chromium through the browser shell: the key goes from the page to the server and never
// back, the next chat message reaches the loopback model with it, and the theme applies and survives a reload.

const skipReason = chromiumSkipReason();
const KEY = 'sk-ant-e2e-settings-0123456789-KEY1';
const KEY2 = 'sk-ant-e2e-settings-9876543210-KEY2';
const SETTINGS = `# my own settings: this comment stays\n${TRUST_ALL}`;

describe.skipIf(skipReason !== null)(
  `the Settings page in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 120_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let web: RunningWeb;
    let fake: FakeAnthropic;
    let home: string;
    // No key in the server's environment: the page must supply it. The fake model's URL comes from the environment.
    useChatApp(
      {
        name: 'settings',
        startModel: () => startFakeAnthropic({ apiKey: KEY }),
        env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_MODEL: undefined },
        settings: SETTINGS,
      },
      (started) => {
        app = started;
        ({ model: fake, web, home } = started);
      },
    );

    /** `received`: every socket frame the page received (from the server). */
    async function openPage(context?: BrowserContext): Promise<{ page: Page; problems: string[]; received: string[] }> {
      const ctx = context ?? (await app.newContext({ viewport: { width: 1100, height: 1000 } }));
      const { page, problems, frames } = await openChatPage(ctx, web.url);
      return { page, problems, received: frames };
    }

    const views = (page: Page) =>
      page.getByRole('navigation', { name: 'Sidebar' }).getByRole('list', { name: 'Views' });
    const keyState = (page: Page) => page.getByTestId('settings-key-state');

    async function sendAndFinish(page: Page, message: string): Promise<void> {
      await views(page).getByRole('button', { name: 'Chat', exact: true }).click();
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill(message);
      await box.press('Enter');
      await expect
        .poll(
          () => page.getByRole('log', { name: 'Conversation' }).getByTestId('assistant-message').last().textContent(),
          POLL,
        )
        .toContain('reply to');
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
    }

    it('saves a key the page never receives back; the next message reaches the model with it, and with a new one after a change', async () => {
      const { page, problems, received } = await openPage();
      await expect.poll(() => page.getByText('No model key', { exact: false }).count(), POLL).toBeGreaterThan(0);
      await views(page).getByRole('button', { name: 'Settings', exact: true }).click();
      const settings = page.getByTestId('settings-view');
      await settings.waitFor();
      expect(await keyState(page).textContent()).toContain('No key');

      // Every control has its label; the key field hides what is typed.
      const keyBox = settings.getByLabel('API key', { exact: true });
      expect(await keyBox.getAttribute('type')).toBe('password');
      for (const name of ['Model name', 'Base URL'])
        expect(await settings.getByRole('textbox', { name, exact: true }).count()).toBe(1);
      for (const name of ['Light', 'Dark', 'System'])
        expect(await settings.getByRole('radio', { name: new RegExp(`^${name}`) }).count()).toBe(1);

      // A bad model name is refused in the page with the reason; a good one is saved.
      const modelBox = settings.getByRole('textbox', { name: 'Model name', exact: true });
      await modelBox.fill('two words');
      expect(await settings.getByRole('button', { name: 'Save model' }).isDisabled()).toBe(true);
      expect(await settings.getByTestId('settings-model').textContent()).toContain('no spaces');
      await modelBox.fill('claude-e2e-model');
      await settings.getByRole('button', { name: 'Save model' }).click();
      await expect
        .poll(() => settings.getByTestId('settings-model-status').textContent(), POLL)
        .toBe('Model name saved.');

      await keyBox.fill(KEY);
      await settings.getByRole('button', { name: 'Save key' }).click();
      await expect.poll(() => settings.getByTestId('settings-key-status').textContent(), POLL).toContain('Key saved');
      expect(await keyBox.inputValue()).toBe('');
      expect(await keyState(page).textContent()).toMatch(/Key set.*settings\.yaml.*ends in …KEY1/);
      expect(await settings.textContent()).toContain('plain text (model.apiKey)');
      const file = path.join(home, 'settings.yaml');
      const yaml = fs.readFileSync(file, 'utf8');
      expect(yaml).toContain('# my own settings: this comment stays');
      expect(yaml).toContain(`apiKey: ${KEY}`);
      expect(yaml).toContain('name: claude-e2e-model');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'settings-light.png'), fullPage: true });

      fake.enqueue(reply(text('reply to the first message')));
      await sendAndFinish(page, 'hello with the saved key');
      const first = fake.requests[fake.requests.length - 1]!;
      // x-api-key or Authorization: Bearer, whichever this SDK version sends.
      expect(sentCredential(first.headers)).toBe(KEY);
      expect(first.body.model).toBe('claude-e2e-model');
      expect(await page.getByText('No model key', { exact: false }).count()).toBe(0);

      // A new key, no restart: the very next message carries it.
      await views(page).getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByTestId('settings-view').getByLabel('API key', { exact: true }).fill(KEY2);
      await page.getByRole('button', { name: 'Save key' }).click();
      await expect.poll(() => keyState(page).textContent(), POLL).toContain('…KEY2');
      fake.enqueue(reply(text('reply to the second message')));
      await sendAndFinish(page, 'hello with the new key');
      expect(sentCredential(fake.requests[fake.requests.length - 1]!.headers)).toBe(KEY2);

      // The key went up once per save and never came back: not in a frame, not in the page.
      const all = received.join('\n');
      for (const k of [KEY, KEY2]) {
        expect(all).not.toContain(k);
        expect(all).not.toContain(k.slice(0, 24));
        expect(await page.content()).not.toContain(k);
      }
      expect(received.length).toBeGreaterThan(5);
      expect(problems).toEqual([]);
    });

    it('theme Dark sets data-theme=dark on <html>, survives a reload and a fresh browser profile; Ctrl+, opens Settings', async () => {
      const { page, problems } = await openPage();
      await page.keyboard.press('Control+Comma');
      const settings = page.getByTestId('settings-view');
      await settings.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('settings-title');
      const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

      await settings.getByRole('radio', { name: /^Dark/ }).check();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), POLL).toBe('dark');
      await expect
        .poll(() => settings.getByTestId('settings-theme-status').textContent(), POLL)
        .toBe('Theme saved: dark.');
      expect(fs.readFileSync(path.join(home, 'settings.yaml'), 'utf8')).toMatch(/ui:\n\s+theme: dark/);
      const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(dark).not.toBe(light);
      expect(dark).toBe('rgb(21, 24, 29)');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'settings-dark.png'), fullPage: true });

      await page.reload();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), POLL).toBe('dark');
      await views(page).getByRole('button', { name: 'Chat', exact: true }).click();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'chat-dark.png'), fullPage: true });

      // A new profile (nothing cached in the browser): the server's setting decides.
      const fresh = await openPage();
      await expect.poll(() => fresh.page.evaluate(() => document.documentElement.dataset.theme), POLL).toBe('dark');

      // System follows the OS scheme, live.
      await page.emulateMedia({ colorScheme: 'light' });
      await views(page).getByRole('button', { name: 'Settings', exact: true }).click();
      await page
        .getByTestId('settings-view')
        .getByRole('radio', { name: /^System/ })
        .check();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), POLL).toBe('light');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), POLL).toBe('dark');
      await expect
        .poll(() => page.getByTestId('settings-theme-status').textContent(), POLL)
        .toBe('Theme saved: system.');
      expect(problems).toEqual([]);
      expect(fresh.problems).toEqual([]);
    });
  },
);
