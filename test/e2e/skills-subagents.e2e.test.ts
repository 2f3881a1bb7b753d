import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { SIZES } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-skills-subagents';

// Skills and sub-agents in the chat: the active skill in the header while the run goes, a sub-agent's ask labelled
// in the approval dialog, its calls nested under the `task` card that started it.
describe.skipIf(skipReason !== null)(
  `skills and sub-agents in the chat${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let fake: FakeAnthropic;
    useChatApp(
      {
        name: 'skills-subagents',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: (_project, home) => {
          fs.mkdirSync(path.join(home, 'skills', 'editor'), { recursive: true });
          fs.writeFileSync(
            path.join(home, 'skills', 'editor', 'SKILL.md'),
            '---\nname: editor\ndescription: Edit notes\nallowed-tools: Read, Write\n---\nEdit carefully.\n',
          );
          fs.mkdirSync(path.join(home, 'agents'), { recursive: true });
          fs.writeFileSync(
            path.join(home, 'agents', 'scribe.md'),
            '---\nname: scribe\ndescription: Writes notes\ntools: Write\n---\nYou write notes.\n',
          );
        },
      },
      (started) => {
        app = started;
        fake = started.model;
      },
    );

    it("the active skill is in the header; a sub-agent's ask names it; its call is nested under the task card", async () => {
      fake.enqueue(
        reply(toolUse('toolu_skill', 'load_skill', { name: 'editor' })),
        reply(toolUse('toolu_task', 'task', { agent: 'scribe', prompt: 'write the note' })),
        reply(toolUse('toolu_sub_w', 'write_file', { path: 'note.txt', content: 'from the scribe\n' })),
        reply(text('note written')),
        reply(text('All done.')),
      );
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Write a note');
      await box.press('Enter');

      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getByTestId('approval-agent').textContent()).toMatch(/^Asked by sub-agent scribe-[0-9a-f]+$/);
      expect(await page.getByTestId('active-skill').textContent()).toBe('Skill: editor · tools: read_file, write_file');
      const task = page.getByRole('article', { name: 'Tool call task' });
      expect(await task.getByTestId('tool-subagent').textContent()).toMatch(
        /^Sub-agent scribe-[0-9a-f]+ \(chat mode\), its asks come to you; tools: write_file · running…$/,
      );
      await page.screenshot({ path: path.join(SCREENSHOTS, 'subagent-approval.png') });
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Allow once', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      expect(fs.readFileSync(path.join(app.project, 'note.txt'), 'utf8')).toBe('from the scribe\n');

      const nested = page.getByRole('article', { name: /^Tool call write_file by sub-agent scribe/ });
      expect(await nested.getByTestId('tool-agent').textContent()).toMatch(/^↳ sub-agent scribe-[0-9a-f]+$/);
      expect(await nested.getByTestId('decision-badge').textContent()).toBe('allowed once by you');
      expect(await nested.evaluate((el) => el.classList.contains('tool-card-sub'))).toBe(true);
      // In order: the task card, then its sub-agent's call right under it.
      const cards = await page
        .getByTestId('tool-card')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      expect(cards).toEqual([
        'Tool call load_skill',
        'Tool call task',
        expect.stringMatching(/^Tool call write_file by sub-agent scribe/),
      ]);
      expect(await task.getByTestId('tool-subagent').textContent()).toContain('· completed');
      // The run is over: no skill is active any more.
      expect(await page.getByTestId('active-skill').count()).toBe(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'subagent-nested.png') });

      // After a reload (from the transcript): the same cards, nested the same way.
      await page.reload();
      await page.getByRole('article', { name: 'Tool call task' }).waitFor();
      await expect
        .poll(
          () => page.getByTestId('tool-card').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))),
          POLL,
        )
        .toEqual([
          'Tool call load_skill',
          'Tool call task',
          expect.stringMatching(/^Tool call write_file by sub-agent scribe/),
        ]);
      const reloaded = page.getByRole('article', { name: /^Tool call write_file by sub-agent scribe/ });
      expect(await reloaded.getByTestId('decision-badge').textContent()).toBe('allowed once by you');
      expect(await reloaded.evaluate((el) => el.classList.contains('tool-card-sub'))).toBe(true);
      expect(
        await page.getByRole('article', { name: 'Tool call task' }).getByTestId('tool-subagent').textContent(),
      ).toContain('· completed');
      expect(problems).toEqual([]);
    });
  },
);
