import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import type { RunningWeb } from './support/start-web';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-never-on-the-page';

describe.skipIf(skipReason !== null)(
  `which sandbox a command ran in, on its card and in the approval (Chromium${skipReason ? `; skipped: ${skipReason}` : ''})`,
  { timeout: 90_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let web: RunningWeb;
    let fake: FakeAnthropic;
    let project: string;
    useChatApp(
      {
        name: 'sandbox-kind',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: (dir) => fs.writeFileSync(path.join(dir, 'hello.txt'), 'hello\n'),
      },
      (started) => {
        app = started;
        ({ model: fake, web, project } = started);
      },
    );

    it('a read-only command says "read-only sandbox"; one a person allows says where it will run, and ran', async () => {
      fake.enqueue(
        reply(toolUse('toolu_ls', 'run_command', { command: 'cat hello.txt' })),
        reply(toolUse('toolu_touch', 'run_command', { command: 'touch made-by-command' })),
        reply(text('All done.')),
      );
      const { page, problems } = await openChatPage(
        await app.newContext({ viewport: { width: 1100, height: 900 } }),
        web.url,
      );
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
      await page.getByRole('textbox', { name: 'Message' }).fill('Read, then touch');
      await page.keyboard.press('Enter');

      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getByTestId('approval-target').textContent()).toBe('touch made-by-command');
      expect(await dialog.getByTestId('approval-sandbox').textContent()).toBe('runs in: sandbox: project writable');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'sandbox-kind-approval.png') });
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Allow once', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });

      const log = page.getByRole('log', { name: 'Conversation' });
      await expect.poll(() => log.getByTestId('assistant-message').last().textContent(), POLL).toContain('All done.');
      expect(fs.existsSync(path.join(project, 'made-by-command'))).toBe(true);
      expect((await log.getByTestId('sandbox-badge').allTextContents()).slice(-2)).toEqual([
        'read-only sandbox',
        'sandbox: project writable',
      ]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'sandbox-kind-cards.png'), fullPage: true });
      expect(problems).toEqual([]);
    });
  },
);
