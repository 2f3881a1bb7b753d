import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, SCREENSHOTS, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { SIZES } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-hook-runs';

// Hook runs outside the permission check, in the chat: a PostToolUse hook's feedback on the call's card, a
// UserPromptSubmit hook's context as a line; both stored in the transcript (still there after a reload).
describe.skipIf(skipReason !== null)(
  `hook runs in the chat${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let fake: FakeAnthropic;
    let postScript = '';
    useChatApp(
      {
        name: 'hook-runs',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        settings: 'trust:\n  default: trust\n',
        prepare: (project, home) => {
          postScript = path.join(home, 'style-check.sh');
          fs.writeFileSync(
            postScript,
            '#!/bin/sh\ncat >/dev/null\necho \'{"decision":"block","reason":"style check: notes use tabs"}\'\n',
            { mode: 0o755 },
          );
          fs.appendFileSync(
            path.join(home, 'settings.yaml'),
            [
              'hooks:',
              '  PostToolUse:',
              '    - matcher: Read',
              '      hooks:',
              '        - type: command',
              `          command: sh ${postScript}`,
              // A hook that says nothing: no decision, shown neutral (not as a warning).
              '        - type: command',
              '          command: cat >/dev/null',
              '  UserPromptSubmit:',
              '    - hooks:',
              '        - type: command',
              '          command: echo "today is a holiday"',
              '',
            ].join('\n'),
          );
          fs.writeFileSync(path.join(project, 'notes.txt'), 'one\n');
        },
      },
      (started) => {
        app = started;
        fake = started.model;
      },
    );

    it("a PostToolUse hook's feedback is on the tool card and a UserPromptSubmit line in the chat, after a reload too", async () => {
      fake.enqueue(reply(toolUse('toolu_p1', 'read_file', { path: 'notes.txt' })), reply(text('Noted the style.')));
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Read the notes');
      await box.press('Enter');
      await expect.poll(() => page.getByTestId('chat-working').count(), { timeout: 30_000 }).toBe(0);

      const check = async (): Promise<void> => {
        const card = page.getByRole('article', { name: 'Tool call read_file' });
        const runs = card.getByRole('list', { name: 'Hook runs' });
        await runs.waitFor({ timeout: 20_000 });
        const line = (await runs.textContent()) ?? '';
        expect(line).toContain('PostToolUse hook');
        expect(line).toContain(`sh ${postScript}`);
        expect(line).toContain('(user)');
        expect(line).toContain('told the model');
        expect(line).toContain('style check: notes use tabs');
        expect(line).toMatch(/\d+ ms/);
        const quiet = runs.getByRole('listitem').filter({ hasText: 'cat >/dev/null' });
        const badge = quiet.locator('.badge');
        expect(await badge.textContent()).toBe('no decision');
        expect(await badge.evaluate((el) => el.classList.contains('badge-muted'))).toBe(true);
        // Neutral: no warning colour behind it (the warning badge's is set; this one's is transparent).
        expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
        // The prompt's hook: a line of its own (not on a card), after the prompt.
        const prompt = page.getByRole('list', { name: 'Hook runs' }).filter({ hasText: 'UserPromptSubmit hook' });
        await prompt.waitFor();
        expect(await prompt.textContent()).toMatch(/added context.*today is a holiday/);
        expect(await card.getByRole('list', { name: 'Hook runs' }).count()).toBe(1);
      };
      await check();
      // The model got the feedback with the tool's result.
      expect(JSON.stringify(fake.requests[1]?.body.messages)).toContain('style check: notes use tabs');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'hooks-post-tool-use-card.png') });

      await page.reload();
      await page.getByRole('article', { name: 'Tool call read_file' }).waitFor();
      await check();
      expect(problems).toEqual([]);
    });
  },
);
