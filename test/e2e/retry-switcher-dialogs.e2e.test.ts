import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { DESIGN_SHOTS, openView, seriousViolations, setTheme, sidebar, SIZES } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-retry';

describe.skipIf(skipReason !== null)(
  `Retry, the trust and confirm dialogs, and path completion in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let fake: FakeAnthropic;
    useChatApp(
      {
        name: 'retry',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: (_project, home) => {
          for (const dir of ['work/alpha', 'work/beta', 'work/.hidden'])
            fs.mkdirSync(path.join(home, dir), { recursive: true });
          fs.writeFileSync(path.join(home, 'work/also-a-file.txt'), 'not a folder\n');
        },
      },
      (started) => {
        app = started;
        fake = started.model;
      },
    );

    it('an overloaded model API: the error names the URL and offers Settings and Retry; Retry sends the message again and works', async () => {
      fake.enqueue({
        kind: 'http-error',
        status: 529,
        errorType: 'overloaded_error',
        message: 'Overloaded',
        headers: { 'x-should-retry': 'false' },
      });
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Say hello');
      await box.press('Enter');
      const log = page.getByRole('log', { name: 'Conversation' });
      const alert = log.getByRole('alert').filter({ hasText: 'The run failed' });
      await alert.waitFor({ timeout: 20_000 });
      const message = (await alert.textContent()) ?? '';
      expect(message).toContain(`the model API at ${fake.baseURL.replace(/\/$/, '')} answered 529`);
      expect(message).toContain('overloaded_error');
      expect(message).not.toContain(API_KEY);
      expect(await alert.getByRole('button', { name: 'Open Settings' }).count()).toBe(1);
      const retry = alert.getByRole('button', { name: 'Retry' });
      await expect.poll(() => retry.isEnabled(), POLL).toBe(true);
      expect(fake.requests).toHaveLength(1);

      fake.enqueue(reply(text('Hello after the retry.')));
      await retry.click();
      await expect
        .poll(() => page.getByTestId('assistant-message').last().textContent(), POLL)
        .toContain('Hello after the retry.');
      expect(fake.requests).toHaveLength(2);
      // The same message went again.
      const sent = fake.requests[1]?.body.messages.at(-1)?.content;
      expect(JSON.stringify(sent)).toContain('Say hello');
      expect(problems).toEqual([]);
    });

    it('the trust dialog and a confirmation dialog pass axe in both themes (zero serious or critical)', async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      const found: string[] = [];
      // The trust dialog, opened from the status bar's trust chip.
      await page
        .getByRole('group', { name: 'Status' })
        .getByRole('button', { name: /^Project trust:/ })
        .click();
      const trust = page.getByRole('dialog', { name: 'Do you trust this folder?' });
      await trust.waitFor();
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await page.screenshot({ path: path.join(DESIGN_SHOTS, `trust-dialog-1280x800-${theme}.png`) });
        for (const v of await seriousViolations(page)) found.push(`trust dialog, ${theme}: ${v}`);
      }
      await trust.getByRole('button', { name: 'Trust this folder', exact: true }).click();
      await trust.waitFor({ state: 'detached' });

      // A confirmation: revoking that decision on the Trusted folders page.
      await openView(page, 'Trusted folders');
      await page.getByRole('button', { name: `Revoke ${app.project}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke trust for this folder?' });
      await confirm.waitFor();
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await page.screenshot({ path: path.join(DESIGN_SHOTS, `confirm-dialog-1280x800-${theme}.png`) });
        for (const v of await seriousViolations(page)) found.push(`confirm dialog, ${theme}: ${v}`);
      }
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: `Revoke ${app.project}` }).count()).toBe(1);
      expect(found).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('the browser shell completes folder paths as you type (~ is the home) and opens the chosen one', async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await sidebar(page).getByRole('button', { name: 'Switch project' }).click();
      const field = sidebar(page).getByRole('combobox', { name: 'Folder path' });
      const offered = () =>
        field.evaluate((el) => [...((el as HTMLInputElement).list?.options ?? [])].map((o) => o.value));
      const work = path.join(app.home, 'work');
      await field.fill('~/work/');
      // Folders only, hidden ones left out unless the typed name starts with a dot.
      await expect.poll(offered, POLL).toEqual([path.join(work, 'alpha'), path.join(work, 'beta')]);
      await field.fill('~/work/a');
      await expect.poll(offered, POLL).toEqual([path.join(work, 'alpha')]);
      await field.fill('~/work/.h');
      await expect.poll(offered, POLL).toEqual([path.join(work, '.hidden')]);
      await field.fill(`${work}/b`);
      await expect.poll(offered, POLL).toEqual([path.join(work, 'beta')]);
      await field.fill('~/nowhere/');
      await expect.poll(offered, POLL).toEqual([]);

      // Choosing a completion and pressing Enter opens it.
      await field.fill(path.join(work, 'alpha'));
      await field.press('Enter');
      await expect
        .poll(() => sidebar(page).getByRole('region', { name: 'Project' }).textContent(), POLL)
        .toContain(path.join(work, 'alpha'));
      expect(problems).toEqual([]);
    });
  },
);
