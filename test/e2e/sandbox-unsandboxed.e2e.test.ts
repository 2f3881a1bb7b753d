import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { RunningWeb } from './support/start-web';

// The approval dialog for a command the model wants to run outside the OS sandbox: two answers and a warning.

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-never-on-the-page';

describe.skipIf(skipReason !== null)(
  `the unsandboxed-command approval in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 90_000 },
  () => {
    let web: RunningWeb;
    let browser: Browser;
    let fake: FakeAnthropic;
    let outside: string;
    useChatApp(
      {
        name: 'unsandboxed',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: () => (outside = fs.mkdtempSync('/var/tmp/gh-e2e-unsandboxed-out-')),
      },
      (started) => ({ model: fake, web, browser } = started),
    );

    afterAll(() => {
      if (outside) fs.rmSync(outside, { recursive: true, force: true });
    });

    it('shows only "Allow once" and "Deny" with the warning, no rule field; "Allow once" runs it outside', async () => {
      const marker = path.join(outside, 'made-outside');
      fake.enqueue(
        reply(toolUse('toolu_out_1', 'run_command', { command: `touch ${marker}`, unsandboxed: true })),
        reply(text('Ran it outside.')),
      );
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      try {
        // Page errors only: no console messages are watched here.
        const { page, problems } = await openChatPage(context, web.url, []);
        await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
        await page.getByRole('textbox', { name: 'Message' }).fill('Touch the marker outside the project');
        await page.keyboard.press('Enter');

        const dialog = page.getByRole('dialog');
        await dialog.waitFor({ state: 'visible' });
        expect(await dialog.getByTestId('approval-target').textContent()).toBe(`touch ${marker}`);
        expect(await dialog.getByTestId('approval-unsandboxed').textContent()).toContain(
          'Runs outside the sandbox: it can write anywhere, read your secrets and use the network',
        );
        const buttons = (await dialog.getByRole('button').allTextContents()).map((t) => t.trim());
        expect(buttons.some((b) => b.startsWith('Allow once'))).toBe(true);
        expect(buttons.some((b) => b.startsWith('Deny'))).toBe(true);
        expect(buttons.filter((b) => /session|always/i.test(b))).toEqual([]);
        expect(await dialog.getByRole('textbox', { name: 'Rule' }).count()).toBe(0);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'approval-unsandboxed.png') });
        expect(fs.existsSync(marker)).toBe(false);

        await waitUntilAnswerable(dialog);
        await dialog.getByRole('button', { name: /^Allow once/ }).click();
        await dialog.waitFor({ state: 'detached' });
        const log = page.getByRole('log', { name: 'Conversation' });
        await expect
          .poll(() => log.getByTestId('assistant-message').last().textContent(), POLL)
          .toContain('Ran it outside.');
        expect(fs.existsSync(marker)).toBe(true);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
