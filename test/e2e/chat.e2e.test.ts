import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp, WatchedPage } from './support/chat-app';
import type { RunningWeb } from './support/start-web';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-never-on-the-page';

async function focusedText(page: Page): Promise<string> {
  return page.evaluate(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement.innerText.trim() : '',
  );
}

/** Tool results in the newest message of the last request the model got, as `{content, is_error}`. */
function lastToolResults(fake: FakeAnthropic): Array<{ content: unknown; is_error: unknown }> {
  const messages = fake.requests[fake.requests.length - 1]?.body.messages ?? [];
  const newest = messages[messages.length - 1];
  const blocks = newest && Array.isArray(newest.content) ? newest.content : [];
  return blocks.filter((b) => b.type === 'tool_result').map((b) => ({ content: b.content, is_error: b.is_error }));
}

describe.skipIf(skipReason !== null)(
  `chat and approvals in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 90_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let web: RunningWeb;
    let fake: FakeAnthropic;
    let project: string;
    // Trusted by default; the key and the fake model's URL go to the server's environment only.
    useChatApp(
      {
        name: 'chat',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: (dir) => fs.writeFileSync(path.join(dir, 'hello.txt'), 'old line\nkept line\n'),
      },
      (started) => {
        app = started;
        ({ model: fake, web, project } = started);
      },
    );

    async function openPage(): Promise<WatchedPage> {
      return openChatPage(await app.newContext({ viewport: { width: 1100, height: 900 } }), web.url);
    }

    it('message -> write_file asks -> the dialog shows the diff -> "Allow once" -> file changed, final text shown', async () => {
      fake.enqueue(
        reply(
          text('I will update `hello.txt`.'),
          toolUse('toolu_write_1', 'write_file', { path: 'hello.txt', content: 'new line\nkept line\n' }),
        ),
        reply(text('Done: hello.txt now starts with **new line**.\n\n```\nnew line\n```')),
      );
      const { page, problems, frames } = await openPage();
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Please update hello.txt');
      await box.press('Enter');

      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getAttribute('aria-modal')).toBe('true');
      expect(await dialog.getByTestId('approval-target').textContent()).toBe('hello.txt');
      expect((await dialog.getByTestId('approval-reason').textContent())?.trim()).not.toBe('');
      expect(await dialog.locator('.diff-add').allTextContents()).toEqual(['+new line']);
      expect(await dialog.locator('.diff-del').allTextContents()).toEqual(['-old line']);
      for (const name of ['Allow once', 'Allow for session', 'Always allow in this project', 'Deny']) {
        expect(await dialog.getByRole('button', { name, exact: true }).count()).toBe(1);
      }
      expect(await dialog.getByRole('textbox', { name: 'Rule' }).inputValue()).not.toBe('');
      await expect.poll(() => focusedText(page), POLL).toBe('Deny');
      // While it waits the agent shows as working, with a Cancel button (behind the modal).
      expect(await page.getByTestId('chat-working').textContent()).toContain('Waiting for your approval');
      expect(await page.getByRole('button', { name: 'Cancel', exact: true, includeHidden: true }).count()).toBe(1);
      // Its spinner turns, except for a person who asked for less motion: then it stands still.
      const spinner = page.getByTestId('chat-working').locator('.spinner');
      const spinning = () => spinner.evaluate((el) => getComputedStyle(el).animationName);
      // (The e2e contexts ask for less motion unless told otherwise: see CONTEXT_DEFAULTS in context-pool.ts.)
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      expect(await spinning()).toBe('chat-spin');
      await page.emulateMedia({ reducedMotion: 'reduce' });
      expect(await spinning()).toBe('none');
      // Not yet written: the call waits for the answer.
      expect(fs.readFileSync(path.join(project, 'hello.txt'), 'utf8')).toBe('old line\nkept line\n');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'chat-approval.png') });

      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Allow once', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(() => fs.readFileSync(path.join(project, 'hello.txt'), 'utf8'), POLL)
        .toBe('new line\nkept line\n');
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0); // the run finished
      await expect
        .poll(() => log.getByTestId('assistant-message').last().textContent(), POLL)
        .toContain('Done: hello.txt now starts with');
      expect(await log.locator('pre.md-code').last().textContent()).toBe('new line');
      expect(await log.getByTestId('user-message').textContent()).toContain('Please update hello.txt');
      // The card's badge says what the person answered; why the engine asked is shown beside it.
      const badge = log.getByTestId('decision-badge');
      expect(await badge.textContent()).toBe('allowed once by you');
      expect(await log.getByTestId('decision-asked').textContent()).toMatch(/^asked: \S/);
      expect(await page.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
      expect(await page.getByTestId('token-usage').textContent()).toMatch(/Tokens: \d+ in · \d+ out/);
      // The model got the tool's success, and the key stayed in the server.
      expect(lastToolResults(fake)).toEqual([expect.objectContaining({ is_error: false })]);
      expect(frames.some((f) => f.includes(API_KEY))).toBe(false);
      expect(await page.content()).not.toContain(API_KEY);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'chat-allowed.png'), fullPage: true });
      expect(problems).toEqual([]);
    });

    it('"Deny" with a note -> the model receives an is_error tool_result carrying the note; nothing is written', async () => {
      fake.enqueue(
        reply(toolUse('toolu_write_2', 'write_file', { path: 'secret.txt', content: 'should not exist\n' })),
        reply(text('Understood, I will not create it.')),
      );
      const { page, problems } = await openPage();
      const before = fake.requests.length;
      await page.getByRole('textbox', { name: 'Message' }).fill('Create secret.txt');
      await page.getByRole('button', { name: 'Send', exact: true }).click();

      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getByTestId('approval-target').textContent()).toBe('secret.txt');
      expect(await dialog.locator('.diff-add').allTextContents()).toEqual(['+should not exist']);
      const note = 'Do not create files outside src, ask me first';
      await dialog.getByRole('textbox', { name: 'Note to the model' }).fill(note);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'chat-deny.png') });
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });

      const log = page.getByRole('log', { name: 'Conversation' });
      await expect
        .poll(() => log.getByTestId('assistant-message').last().textContent(), POLL)
        .toContain('Understood, I will not create it.');
      expect(fake.requests.length).toBe(before + 2);
      const results = lastToolResults(fake);
      expect(results).toHaveLength(1);
      expect(results[0]?.is_error).toBe(true);
      expect(String(results[0]?.content)).toContain(note);
      expect(fs.existsSync(path.join(project, 'secret.txt'))).toBe(false);
      const badges = await log.getByTestId('decision-badge').allTextContents();
      expect(badges[badges.length - 1]).toBe('denied by you');
      expect(await log.locator('.tool-card').last().textContent()).toContain(note);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'chat-denied.png'), fullPage: true });
      expect(problems).toEqual([]);
    });
    it('"Allow for session" adds the suggested rule (the next write is allowed by it, no dialog); Escape denies', async () => {
      fake.enqueue(
        reply(toolUse('toolu_notes_1', 'write_file', { path: 'notes.txt', content: 'one\n' })),
        reply(toolUse('toolu_notes_2', 'write_file', { path: 'notes.txt', content: 'two\n' })),
        reply(toolUse('toolu_cmd_1', 'run_command', { command: 'touch made-by-command' })),
        reply(text('All done.')),
      );
      const { page, problems } = await openPage();
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
      await page.getByRole('textbox', { name: 'Message' }).fill('Write notes twice, then run a command');
      await page.keyboard.press('Enter');

      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getByTestId('approval-target').textContent()).toBe('notes.txt');
      const rule = await dialog.getByRole('textbox', { name: 'Rule' }).inputValue();
      expect(rule).toContain('notes.txt');
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Allow for session', exact: true }).click();

      // The second write is allowed by the session rule; the command asks and Escape answers Deny. The next dialog
      // can follow within milliseconds, faster than a wait for "no dialog" polls: wait for the dialog's call to change
      // (a dialog for the second write would stay on notes.txt and fail here).
      await expect.poll(() => dialog.getByTestId('approval-target').textContent(), POLL).toBe('touch made-by-command');
      expect(fs.readFileSync(path.join(project, 'notes.txt'), 'utf8')).toBe('two\n');
      await expect.poll(() => focusedText(page), POLL).toBe('Deny');
      await waitUntilAnswerable(dialog);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      const log = page.getByRole('log', { name: 'Conversation' });
      await expect.poll(() => log.getByTestId('assistant-message').last().textContent(), POLL).toContain('All done.');
      const badges = await log.getByTestId('decision-badge').allTextContents();
      // Earlier runs of the session (shown again on this new page) come first.
      expect(badges.slice(-3)).toEqual([
        `allowed for this session by you (added ${rule})`,
        `allowed by rule ${rule} from session`,
        'denied by you',
      ]);
      // The earlier runs' cards show their decisions too (allowed once, denied), never a bare "earlier run".
      expect(badges.slice(0, -3).every((b) => b === 'allowed once by you' || b === 'denied by you')).toBe(true);
      expect(await log.locator('.tool-card').last().textContent()).toContain('denied by you');
      expect(fs.existsSync(path.join(project, 'made-by-command'))).toBe(false);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'chat-session-rule.png'), fullPage: true });

      // The Rules view lists the session's rule under "This session"; deleting it there ends it for the session.
      await page.getByRole('button', { name: 'Rules', exact: true }).click();
      const sessionGroup = page.getByTestId('rules-group-session');
      await expect.poll(() => sessionGroup.locator('.rules-text').allTextContents(), POLL).toEqual([rule]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'rules-session-rule.png'), fullPage: true });
      await sessionGroup.getByRole('button', { name: `Delete ${rule}` }).click();
      await page
        .getByRole('dialog', { name: 'Delete this allow rule?' })
        .getByRole('button', { name: 'Delete rule', exact: true })
        .click();
      await sessionGroup.waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
    });
    it('two asks at once queue in one dialog ("1 of 2"), answered one after the other', async () => {
      fs.writeFileSync(path.join(project, '.env'), 'TOKEN=one\n');
      fs.writeFileSync(path.join(project, '.env.local'), 'TOKEN=two\n');
      fake.enqueue(
        reply(
          toolUse('toolu_env_1', 'read_file', { path: '.env' }),
          toolUse('toolu_env_2', 'read_file', { path: '.env.local' }),
        ),
        reply(text('Read what you allowed.')),
      );
      const { page, problems } = await openPage();
      await page.getByRole('textbox', { name: 'Message' }).fill('Read both env files');
      await page.keyboard.press('Enter');

      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent(), POLL).toContain('1 of 2');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'chat-queue.png') });
      const first = await dialog.getByTestId('approval-target').textContent();
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Allow once', exact: true }).click();
      await expect.poll(() => dialog.getByTestId('approval-target').textContent(), POLL).not.toBe(first);
      const second = await dialog.getByTestId('approval-target').textContent();
      expect([first, second].sort()).toEqual(['.env', '.env.local']);
      // The queue is down to this one; it is still call 2 of the model's 2 in this turn.
      expect(await dialog.getByRole('heading', { level: 2 }).textContent()).not.toContain('waiting');
      expect(await dialog.getByTestId('approval-count').textContent()).toMatch(/^call [12] of 2 in this turn$/);
      await expect.poll(() => focusedText(page), POLL).toBe('Deny');
      await waitUntilAnswerable(dialog);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      const log = page.getByRole('log', { name: 'Conversation' });
      await expect
        .poll(() => log.getByTestId('assistant-message').last().textContent(), POLL)
        .toContain('Read what you allowed.');
      const results = lastToolResults(fake);
      expect(results.map((r) => r.is_error).sort()).toEqual([false, true]);
      expect(problems).toEqual([]);
    });

    it('a page closed while an approval waits denies the call: the model gets is_error, nothing is written', async () => {
      fake.enqueue(
        reply(toolUse('toolu_closed_1', 'write_file', { path: 'closed.txt', content: 'x\n' })),
        reply(text('Nobody answered.')),
      );
      const { page } = await openPage();
      const before = fake.requests.length;
      await page.getByRole('textbox', { name: 'Message' }).fill('Write closed.txt');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').waitFor({ state: 'visible' });
      await app.closeContexts();

      await expect.poll(() => fake.requests.length, POLL).toBe(before + 2);
      const results = lastToolResults(fake);
      expect(results).toEqual([expect.objectContaining({ is_error: true })]);
      expect(fs.existsSync(path.join(project, 'closed.txt'))).toBe(false);
      // A new page finds nothing waiting and can chat again.
      fake.enqueue(reply(text('Hello again.')));
      const { page: next, problems } = await openPage();
      expect(await next.getByRole('dialog').count()).toBe(0);
      await next.getByRole('textbox', { name: 'Message' }).fill('Hi');
      await next.keyboard.press('Enter');
      await expect
        .poll(() => next.getByTestId('assistant-message').last().textContent(), POLL)
        .toContain('Hello again.');
      expect(problems).toEqual([]);
    });
    it('a new page shows the session so far; "New session" starts empty; the sidebar resumes the earlier one', async () => {
      const { page, problems } = await openPage();
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect
        .poll(() => log.getByTestId('assistant-message').last().textContent(), POLL)
        .toContain('Hello again.');
      // The transcript is virtualised and opens at its newest entry: Home brings its first message into view.
      await log.focus();
      await log.press('Home');
      await expect
        .poll(() => log.getByTestId('user-message').first().textContent(), POLL)
        .toContain('Please update hello.txt');

      await page.getByRole('button', { name: 'New session', exact: true }).click();
      await expect.poll(() => log.textContent(), POLL).toContain('Ask the agent about this project');
      fake.enqueue(reply(text('Fresh start.')));
      await page.getByRole('textbox', { name: 'Message' }).fill('New topic');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => log.getByTestId('assistant-message').last().textContent(), POLL)
        .toContain('Fresh start.');
      expect(fake.requests[fake.requests.length - 1]?.body.messages).toHaveLength(1); // no earlier history

      // Named by its first message.
      const resume = page.getByRole('button', { name: 'Resume session: Please update hello.txt', exact: true });
      await resume.waitFor();
      // Both sessions are listed (the list refreshes as the new session's first run is recorded).
      await expect.poll(() => page.getByRole('button', { name: /^Resume session: / }).count(), POLL).toBe(2);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'chat-sessions.png') });
      await resume.click();
      await expect.poll(() => resume.getAttribute('aria-current'), POLL).toBe('true');
      await expect
        .poll(() => log.getByTestId('assistant-message').last().textContent(), POLL)
        .toContain('Hello again.');
      // The resumed session's first call shows its stored decision: the person allowed it once.
      await log.focus();
      await log.press('Home');
      await expect.poll(() => log.getByTestId('tool-target').first().textContent(), POLL).toBe('hello.txt');
      expect(await log.getByTestId('decision-badge').first().textContent()).toBe('allowed once by you');
      fake.enqueue(reply(text('Back in the first session.')));
      await page.getByRole('textbox', { name: 'Message' }).fill('Continue');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => log.getByTestId('assistant-message').last().textContent(), POLL)
        .toContain('Back in the first session.');
      const sent = fake.requests[fake.requests.length - 1]?.body.messages ?? [];
      expect(sent.length).toBeGreaterThan(5);
      expect(JSON.stringify(sent[0])).toContain('Please update hello.txt');
      expect(problems).toEqual([]);
    });
  },
);
