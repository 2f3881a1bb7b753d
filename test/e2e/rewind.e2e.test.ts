import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-rewind';

// "Rewind to here" in Chromium against `gatehouse web`, a real agent session (the loopback model) and real files:
// the preview lists what a rewind changes (a file the person edited since marked and kept unless ticked), the files
// go back, the conversation continues in a copy of the session ending before the message, and the message is back
// in the box.
describe.skipIf(skipReason !== null)(
  `rewind to a message in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 120_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let fake: FakeAnthropic;
    let project: string;
    useChatApp(
      {
        name: 'rewind',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: (dir) => fs.writeFileSync(path.join(dir, 'hello.txt'), 'v1\n'),
      },
      (started) => {
        app = started;
        ({ model: fake, project } = started);
      },
    );
    const file = (rel: string): string => path.join(project, rel);
    const read = (rel: string): string => fs.readFileSync(file(rel), 'utf8');

    async function send(page: Page, message: string, answer: string): Promise<void> {
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill(message);
      await box.press('Enter');
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect.poll(() => log.getByTestId('assistant-message').last().textContent(), POLL).toContain(answer);
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
    }

    it('previews, keeps the file the person edited, puts the agent’s changes back and rewinds the conversation', async () => {
      const context = await app.newContext({ viewport: { width: 1200, height: 900 } });
      const { page, problems } = await openChatPage(context, app.web.url);
      await page.getByRole('combobox', { name: 'Permission mode' }).selectOption('acceptEdits');
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');

      fake.enqueue(
        reply(toolUse('toolu_w1', 'write_file', { path: 'hello.txt', content: 'v2\n' })),
        reply(text('First change made.')),
      );
      await send(page, 'Change hello.txt to v2', 'First change made.');
      fake.enqueue(
        reply(
          toolUse('toolu_w2', 'write_file', { path: 'added.txt', content: 'added by the agent\n' }),
          toolUse('toolu_w3', 'write_file', { path: 'other.txt', content: 'by the agent\n' }),
        ),
        reply(text('Second change made.')),
      );
      await send(page, 'Add two files', 'Second change made.');
      expect(read('hello.txt')).toBe('v2\n');
      // The person edits files after the agent's run: outside the agent.
      fs.writeFileSync(file('hello.txt'), 'my own edit\n');
      fs.writeFileSync(file('other.txt'), 'my edit of the agent file\n');

      const log = page.getByRole('log', { name: 'Conversation' });
      const second = log.getByTestId('user-message').filter({ hasText: 'Add two files' });
      // Keyboard: the button is reachable and opens the preview; Escape closes it and changes nothing.
      await second.getByRole('button', { name: 'Rewind to here' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Rewind to before this message' });
      await dialog.waitFor({ state: 'visible' });
      await expect.poll(() => dialog.getByTestId('rewind-file').count(), POLL).toBe(3);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(fs.existsSync(file('added.txt'))).toBe(true);

      await second.getByRole('button', { name: 'Rewind to here' }).click();
      await dialog.waitFor({ state: 'visible' });
      const rows = dialog.getByTestId('rewind-file');
      await expect.poll(() => rows.count(), POLL).toBe(3);
      // added.txt: the agent made it (deleted by a rewind); hello.txt and other.txt: the person edited them since.
      expect(await rows.allTextContents()).toEqual([
        expect.stringMatching(/^added\.txt\s+deleted \(new since\)$/),
        expect.stringMatching(/^hello\.txt\s+put back\s+changed outside the agent: kept$/),
        expect.stringMatching(/^other\.txt\s+deleted \(new since\)\s+changed outside the agent: kept$/),
      ]);
      expect(await dialog.locator('[data-testid="rewind-file"][data-external="true"]').count()).toBe(2);
      // The diff of the chosen file, from now back to the checkpoint.
      expect(await dialog.locator('.diff-del').allTextContents()).toEqual(['-added by the agent']);
      await dialog.getByRole('button', { name: 'hello.txt' }).click();
      expect(await dialog.locator('.diff-del').allTextContents()).toEqual(['-my own edit']);
      expect(await dialog.locator('.diff-add').allTextContents()).toEqual(['+v2']);
      expect(await dialog.getByRole('checkbox').isChecked()).toBe(false);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'rewind-preview.png'), fullPage: true });

      await dialog.getByRole('button', { name: 'Rewind files and conversation' }).click();
      await dialog.waitFor({ state: 'detached' });
      // Files: the agent's new file is gone; the ones the person edited are kept.
      expect(fs.existsSync(file('added.txt'))).toBe(false);
      expect(read('other.txt')).toBe('my edit of the agent file\n');
      expect(read('hello.txt')).toBe('my own edit\n');
      // Conversation: the copy ends before the message, which is back in the box.
      await expect
        .poll(() => log.getByTestId('user-message').allTextContents(), POLL)
        .toEqual([expect.stringContaining('Change hello.txt to v2')]);
      expect(await log.getByTestId('assistant-message').allTextContents()).toEqual([
        expect.stringContaining('First change made.'),
      ]);
      expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('Add two files');
      await expect.poll(() => log.textContent(), POLL).toContain('Files rewound: 1 file put back.');
      expect(await log.textContent()).toContain('Kept as they are (changed outside the agent): hello.txt, other.txt.');
      // Both sessions are listed: the original one, untouched, and the rewound copy.
      const sessions = page.locator('.session-item');
      await expect.poll(() => sessions.count(), POLL).toBe(2);
      expect(await sessions.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('(rewound)')]));

      // The copy's earlier message can be rewound too: the files only, this time overwriting the person's edits.
      const first = log.getByTestId('user-message').filter({ hasText: 'Change hello.txt to v2' });
      await first.getByRole('button', { name: 'Rewind to here' }).click();
      await dialog.waitFor({ state: 'visible' });
      await expect.poll(() => rows.count(), POLL).toBe(2);
      expect(await rows.filter({ hasText: 'hello.txt' }).getAttribute('data-external')).toBe('true');
      await dialog.getByRole('checkbox').check();
      await dialog.getByRole('button', { name: 'Files only' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(read('hello.txt')).toBe('v1\n');
      expect(fs.existsSync(file('other.txt'))).toBe(false);
      expect(await log.getByTestId('user-message').count()).toBe(1);
      // Every restore is in the audit log.
      const audit = fs.readFileSync(path.join(app.home, 'audit.jsonl'), 'utf8');
      expect(audit.match(/"kind":"checkpoint-restore"/g)).toHaveLength(2);
      // …and on the Audit log page, in words (not counted as unreadable lines).
      await page.getByRole('button', { name: 'Audit log', exact: true }).click();
      const history = page.getByTestId('audit-checkpoints');
      await history.getByText('Checkpoint restores and deletions (2)').click();
      expect(await history.locator('li').allTextContents()).toEqual([
        expect.stringMatching(/restored: 2 files put back; undo: checkpoint [0-9a-f]{12}\.$/),
        expect.stringMatching(
          /restored: 1 file put back, 2 files kept \(changed outside the agent: hello\.txt, other\.txt\)/,
        ),
      ]);
      expect(await page.locator('.panel-note').first().textContent()).not.toContain('unreadable');
      expect(problems).toEqual([]);
    });

    it('lists and puts back a file the agent hid by ignoring its folder', async () => {
      const context = await app.newContext({ viewport: { width: 1000, height: 800 } });
      const { page, problems } = await openChatPage(context, app.web.url);
      const log = page.getByRole('log', { name: 'Conversation' });
      await page.getByRole('button', { name: 'New session' }).click();
      await expect.poll(() => log.getByTestId('user-message').count(), POLL).toBe(0);
      await page.getByRole('combobox', { name: 'Permission mode' }).selectOption('acceptEdits');
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
      fs.mkdirSync(file('src'), { recursive: true });
      fs.writeFileSync(file('src/app.js'), 'app v1\n');
      fake.enqueue(
        reply(toolUse('toolu_h1', 'write_file', { path: '.gitignore', content: 'src/\n' })),
        reply(toolUse('toolu_h2', 'write_file', { path: 'src/app.js', content: 'hidden change\n' })),
        reply(text('Hidden.')),
      );
      await send(page, 'Hide a change', 'Hidden.');
      await log
        .getByTestId('user-message')
        .filter({ hasText: 'Hide a change' })
        .getByRole('button', { name: 'Rewind to here' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Rewind to before this message' });
      const rows = dialog.getByTestId('rewind-file');
      await expect.poll(() => rows.count(), POLL).toBe(2);
      expect(await rows.allTextContents()).toEqual([
        expect.stringMatching(/^\.gitignore\s+deleted \(new since\)$/),
        expect.stringMatching(/^src\/app\.js\s+put back$/),
      ]);
      await dialog.getByRole('button', { name: 'src/app.js' }).click();
      expect(await dialog.locator('.diff-del').allTextContents()).toEqual(['-hidden change']);
      await dialog.getByRole('button', { name: 'Files only' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(read('src/app.js')).toBe('app v1\n');
      expect(fs.existsSync(file('.gitignore'))).toBe(false);
      expect(problems).toEqual([]);
    });

    it('a message without a checkpoint (plan mode) can rewind its conversation only', async () => {
      const context = await app.newContext({ viewport: { width: 1000, height: 800 } });
      const { page, problems } = await openChatPage(context, app.web.url);
      const log = page.getByRole('log', { name: 'Conversation' });
      // A new session at once, even before the page has shown the open one (the first test's): it starts from nothing.
      await page.getByRole('button', { name: 'New session' }).click();
      await expect.poll(() => log.getByTestId('user-message').count(), POLL).toBe(0);
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('plan');
      fake.enqueue(reply(text('Here is a plan.')));
      await send(page, 'Plan something', 'Here is a plan.');
      fake.enqueue(reply(text('Here is more.')));
      await send(page, 'Plan more', 'Here is more.');
      const rewindOf = (message: string) =>
        log.getByTestId('user-message').filter({ hasText: message }).getByRole('button', { name: 'Rewind to here' });
      await expect.poll(() => rewindOf('Plan more').count(), POLL).toBe(1);
      await rewindOf('Plan more').click();
      const dialog = page.getByRole('dialog', { name: 'Rewind to before this message' });
      await expect
        .poll(() => dialog.getByTestId('rewind-files-unavailable').textContent(), POLL)
        .toContain('plan mode');
      expect(await dialog.getByRole('button', { name: 'Files only' }).isDisabled()).toBe(true);
      expect(await dialog.getByRole('button', { name: 'Rewind files and conversation' }).isDisabled()).toBe(true);
      await dialog.getByRole('button', { name: 'Conversation only' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(() => log.getByTestId('user-message').allTextContents(), POLL)
        .toEqual([expect.stringContaining('Plan something')]);
      const box = page.getByRole('textbox', { name: 'Message' });
      expect(await box.inputValue()).toBe('Plan more');
      // The copy's message rewound again: a copy of the copy, still "(rewound)" once; the box keeps what is in it.
      await rewindOf('Plan something').click();
      await dialog.getByRole('button', { name: 'Conversation only' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => log.getByTestId('user-message').count(), POLL).toBe(0);
      expect(await box.inputValue()).toBe('Plan more');
      const titles = page.locator('.session-item .session-title');
      await expect.poll(() => titles.allTextContents(), POLL).toContain('Plan something (rewound)');
      expect((await titles.allTextContents()).filter((t) => t.includes('(rewound) (rewound)'))).toEqual([]);
      expect(problems).toEqual([]);
    });
  },
);
