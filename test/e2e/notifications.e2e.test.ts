import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { openView } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-notify';

describe.skipIf(skipReason !== null)(
  `approval notifications in the browser shell${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 90_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    useChatApp(
      {
        name: 'notify',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: (dir) => fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n'),
      },
      (started) => (app = started),
    );

    it('with notifications allowed, an approval waiting behind another tab notifies; answered, it closes', async () => {
      const context = await app.newContext({ viewport: { width: 1280, height: 800 } });
      await context.grantPermissions(['notifications'], { origin: app.web.origin });
      // Every notification the page makes, recorded (the real one is still made).
      await context.addInitScript(() => {
        const Real = window.Notification;
        const made: Array<{ title: string; body: string; closed: boolean }> = [];
        class Recorded extends Real {
          constructor(title: string, options?: NotificationOptions) {
            super(title, options);
            const entry = { title, body: options?.body ?? '', closed: false };
            made.push(entry);
            const close = this.close.bind(this);
            this.close = () => {
              entry.closed = true;
              close();
            };
          }
        }
        Object.defineProperty(window, 'Notification', { value: Recorded });
        Object.defineProperty(window, '__notifications', { value: made });
      });
      const { page, problems } = await openChatPage(context, app.web.url);
      const made = () =>
        page.evaluate(
          () =>
            (window as unknown as { __notifications: Array<{ title: string; body: string; closed: boolean }> })
              .__notifications,
        );
      await openView(page, 'Settings');
      await expect
        .poll(() => page.getByTestId('settings-notifications').textContent(), POLL)
        .toContain('On: this browser shows a notification');
      await openView(page, 'Chat');

      app.model.enqueue(
        reply(toolUse('toolu_n1', 'write_file', { path: 'a.txt', content: 'b\n' })),
        reply(text('Done.')),
      );
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Change a.txt');
      // Another tab comes to the front: this page is not focused when the approval arrives.
      const other = await context.newPage();
      await page.evaluate(() => window.dispatchEvent(new Event('blur')));
      await box.press('Enter');
      await other.bringToFront();
      await expect.poll(async () => (await made()).length, POLL).toBe(1);
      expect((await made())[0]).toEqual({
        title: 'Gatehouse: an approval is waiting',
        body: 'write_file a.txt',
        closed: false,
      });

      await page.bringToFront();
      const dialog = page.getByRole('dialog');
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
      await expect.poll(async () => (await made())[0]?.closed, POLL).toBe(true);
      expect(problems).toEqual([]);
    });
  },
);
