import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { sidebar } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-sessions';

describe.skipIf(skipReason !== null)(
  `sessions in the sidebar${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 90_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    useChatApp(
      {
        name: 'sessions',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
      },
      (started) => (app = started),
    );

    it('named by the first prompt, survive a reload, rename, delete with Undo; the open one is marked', async () => {
      const { page, problems } = await openChatPage(
        await app.newContext({ viewport: { width: 1280, height: 800 } }),
        app.web.url,
      );
      const send = async (message: string, answer: string) => {
        app.model.enqueue(reply(text(answer)));
        const box = page.getByRole('textbox', { name: 'Message' });
        await box.fill(message);
        await box.press('Enter');
        await expect.poll(() => page.getByTestId('assistant-message').last().textContent(), POLL).toContain(answer);
        // The answer shows before its run ends: the next message is taken only once it has.
        await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      };
      await send('Fix the login bug', 'Looking.');
      await send('And the tests', 'Done.');
      await sidebar(page).getByRole('button', { name: 'New session', exact: true }).click();
      await send('Write the changelog', 'Written.');

      const list = sidebar(page).getByRole('list', { name: 'Sessions of this project' });
      await expect.poll(() => list.getByRole('listitem').count(), POLL).toBe(2);
      const open = list.getByRole('button', { name: 'Resume session: Write the changelog', exact: true });
      expect(await open.getAttribute('aria-current')).toBe('true');

      // A reload shows the same sessions, the open one still marked.
      await page.reload();
      await expect.poll(() => list.getByRole('listitem').count(), POLL).toBe(2);
      await expect.poll(() => open.getAttribute('aria-current'), POLL).toBe('true');

      // Rename: Enter saves; the new name is the session's name everywhere.
      await list.getByRole('button', { name: 'Rename session: Fix the login bug', exact: true }).click();
      const field = list.getByRole('textbox', { name: /^Session name/ });
      await field.fill('Login bug');
      await field.press('Enter');
      const renamed = list.getByRole('button', { name: 'Resume session: Login bug', exact: true });
      await renamed.waitFor();

      // Delete: gone at once, Undo brings it back.
      await list.getByRole('button', { name: 'Delete session: Login bug', exact: true }).click();
      await expect.poll(() => list.getByRole('listitem').count(), POLL).toBe(1);
      await sidebar(page).getByRole('button', { name: 'Undo', exact: true }).click();
      await renamed.waitFor();
      await renamed.click();
      await expect.poll(() => renamed.getAttribute('aria-current'), POLL).toBe('true');
      await expect
        .poll(() => page.getByTestId('user-message').first().textContent(), POLL)
        .toContain('Fix the login bug');
      expect(await page.locator('#chat-title').textContent()).toBe('Login bug');
      expect(problems).toEqual([]);
    });
  },
);
