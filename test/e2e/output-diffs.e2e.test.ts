import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, TRUST_ALL, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { resumeSession, sidebar } from './support/ui';

// Issue 45 in Chromium: a spinner reaches the model and the card as its last frame (no warning), and a write's card
// keeps the diff it was decided with, after the run and after a reload or a resume, asked or allowed by a rule.

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-output-diffs';

/** npm's spinner: braille frames redrawn with CR and column moves, a final line; printf reuses its format per frame. */
const FRAMES = Array.from({ length: 240 }, (_, i) => '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'[i % 10]).join(' ');
const SPINNER =
  `printf '\\033[?25l'; printf '\\r\\033[K%s idealTree:lodash: sill placeDep ROOT lodash@4.17.21\\033[1G' ${FRAMES}; ` +
  `printf '\\033[1G\\033[0Kadded 1 package, and audited 2 packages in 2s\\n\\033[?25h'`;
const FINAL_LINE = 'added 1 package, and audited 2 packages in 2s';

/** The text of the newest tool_result the model received. */
function lastResultText(fake: FakeAnthropic): string {
  const messages = fake.requests[fake.requests.length - 1]?.body.messages ?? [];
  const newest = messages[messages.length - 1];
  const result = (Array.isArray(newest?.content) ? newest.content : []).find((b) => b.type === 'tool_result');
  return String(result?.content ?? '');
}

describe.skipIf(skipReason !== null)(
  `command output and kept diffs (Chromium)${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 120_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let fake: FakeAnthropic;
    useChatApp(
      {
        name: 'output-diffs',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        // Edits of src/rules.js are allowed by a rule: no approval is asked for them.
        settings: `${TRUST_ALL}permissions:\n  allow: ["Edit(src/rules.js)"]\n`,
        prepare: (project) => {
          fs.mkdirSync(path.join(project, 'src'));
          fs.writeFileSync(path.join(project, 'src/greet.js'), "console.log('hi');\nmodule.exports = {};\n");
          fs.writeFileSync(path.join(project, 'src/rules.js'), 'const limit = 1;\n');
        },
      },
      (started) => {
        app = started;
        fake = started.model;
      },
    );

    async function start(message: string): Promise<{ page: Page; problems: string[] }> {
      const opened = await openChatPage(await app.newContext({ viewport: { width: 1100, height: 900 } }), app.web.url);
      await opened.page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
      await send(opened.page, message);
      return opened;
    }

    async function send(page: Page, message: string): Promise<void> {
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill(message);
      await box.press('Enter');
    }

    const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation' });
    const untilAnswered = (page: Page, answer: string) =>
      expect
        .poll(() => conversation(page).getByTestId('assistant-message').last().textContent(), POLL)
        .toContain(answer);

    it('an npm-style spinner: the model gets the final line in a few bytes, the card shows it without a warning', async () => {
      fake.enqueue(reply(toolUse('toolu_spin', 'run_command', { command: SPINNER })), reply(text('Installed.')));
      const { page, problems } = await start('Install lodash');
      await untilAnswered(page, 'Installed.');
      const result = lastResultText(fake);
      expect(result).toBe(`${FINAL_LINE}\n[exit code 0]`);
      expect(Buffer.byteLength(result)).toBeLessThan(2048);

      const card = conversation(page).getByTestId('tool-card').last();
      await card.getByText('Output', { exact: true }).click();
      const output = card.locator('.command-output');
      expect(await output.getAttribute('data-view')).toBe('terminal');
      expect(await card.getByTestId('output-flag').count()).toBe(0);
      const rows = card.getByRole('region', { name: 'Command output' }).locator('.xterm-rows');
      await expect.poll(() => rows.textContent(), POLL).toContain(FINAL_LINE);
      expect(await rows.textContent()).not.toContain('idealTree');
      await card.getByRole('button', { name: 'Text (what the model got)' }).click();
      expect(await card.getByTestId('command-output-text').innerText()).toBe(result);
      await card.screenshot({ path: path.join(SCREENSHOTS, 'output-spinner.png') });
      expect(problems).toEqual([]);
    });

    /** A card's kept diff: folded (unless this page opened it before), one click opens it; its +/- lines. */
    async function diffLines(card: Locator, folded = true): Promise<{ added: string[]; removed: string[] }> {
      const diff = card.getByTestId('tool-diff');
      await diff.waitFor();
      const open = await diff.evaluate((el) => (el as HTMLDetailsElement).open);
      expect(open).toBe(!folded);
      if (!open) await diff.locator('summary').click();
      await diff.locator('.diff-view').waitFor();
      return {
        added: await diff.locator('.diff-add').allTextContents(),
        removed: await diff.locator('.diff-del').allTextContents(),
      };
    }

    it('an approved edit keeps its diff on the card after the run, after a reload and after a resume', async () => {
      fake.enqueue(
        reply(
          toolUse('toolu_greet', 'edit_file', {
            path: 'src/greet.js',
            old_string: "console.log('hi');",
            new_string: "console.log('hello');",
          }),
        ),
        reply(text('Greeting changed.')),
      );
      const { page, problems } = await start('Edit the greeting');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Allow once', exact: true }).click();
      await untilAnswered(page, 'Greeting changed.');
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      const expected = { added: ["+console.log('hello');"], removed: ["-console.log('hi');"] };

      const card = () => conversation(page).getByTestId('tool-card').last();
      expect(await card().getByTestId('decision-badge').textContent()).toBe('allowed once by you');
      expect(await diffLines(card())).toEqual(expected);
      await card().screenshot({ path: path.join(SCREENSHOTS, 'tool-card-diff.png') });

      await page.reload();
      await expect.poll(() => card().getByTestId('decision-badge').textContent(), POLL).toBe('allowed once by you');
      expect(await diffLines(card())).toEqual(expected);

      // A new session, then back to this one: the card comes from the transcript on disk.
      const sessions = sidebar(page).getByRole('list', { name: 'Sessions of this project' });
      const openSession = (await sessions.locator('button[aria-current="true"]').textContent())?.trim();
      await sidebar(page).getByRole('button', { name: 'New session', exact: true }).click();
      await expect.poll(() => conversation(page).getByTestId('tool-card').count(), POLL).toBe(0);
      await resumeSession(page, openSession ?? '');
      await expect.poll(() => card().getByTestId('decision-badge').textContent(), POLL).toBe('allowed once by you');
      // Opened on this page before: it stays open, as the person left it.
      expect(await diffLines(card(), false)).toEqual(expected);
      expect(problems).toEqual([]);
    });

    it('an edit a rule allowed (no approval) has its diff too', async () => {
      fake.enqueue(
        reply(
          toolUse('toolu_rule', 'edit_file', {
            path: 'src/rules.js',
            old_string: 'const limit = 1;',
            new_string: 'const limit = 5;',
          }),
        ),
        reply(text('Limit raised.')),
      );
      const { page, problems } = await start('Raise the limit');
      await untilAnswered(page, 'Limit raised.');
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(fs.readFileSync(path.join(app.project, 'src/rules.js'), 'utf8')).toBe('const limit = 5;\n');
      const card = conversation(page).getByTestId('tool-card').last();
      expect(await card.getByTestId('decision-badge').textContent()).toBe(
        'allowed by rule Edit(src/rules.js) from user',
      );
      expect(await diffLines(card)).toEqual({ added: ['+const limit = 5;'], removed: ['-const limit = 1;'] });
      expect(problems).toEqual([]);
    });
  },
);
