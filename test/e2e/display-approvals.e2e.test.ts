import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { BIDI, focusedText, INVISIBLE, readsBefore, screenshotBothThemes, textBox } from './support/display';
import type { RunningWeb } from './support/start-web';

// Issue 13 in Chromium: hostile calls, and what the approval shows of them (on screen, not only in the DOM).

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-display-approvals';
const BINARY = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0xde, 0xad]);
const BIG_BYTES = 3 * 1024 * 1024;

/** Tool results of the newest message the model received, in order. */
function lastResults(fake: FakeAnthropic): Array<{ is_error: unknown; content: unknown }> {
  const messages = fake.requests[fake.requests.length - 1]?.body.messages ?? [];
  const newest = messages[messages.length - 1];
  return (Array.isArray(newest?.content) ? newest.content : [])
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ is_error: b.is_error, content: b.content }));
}

describe.skipIf(skipReason !== null)(
  `approvals show exactly what runs (Chromium)${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 120_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let web: RunningWeb;
    let fake: FakeAnthropic;
    let project: string;
    useChatApp(
      {
        name: 'display-approvals',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: (dir) => {
          fs.writeFileSync(path.join(dir, 'tool.bin'), BINARY);
          fs.writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(BIG_BYTES));
        },
      },
      (started) => {
        app = started;
        ({ model: fake, web, project } = started);
      },
    );

    const exists = (name: string): boolean => fs.existsSync(path.join(project, name));

    async function start(message: string): Promise<{ page: Page; problems: string[] }> {
      const opened = await openChatPage(await app.newContext({ viewport: { width: 1100, height: 900 } }), web.url);
      await opened.page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
      const box = opened.page.getByRole('textbox', { name: 'Message' });
      await box.fill(message);
      await box.press('Enter');
      return opened;
    }

    async function finished(page: Page, words: string): Promise<void> {
      await expect
        .poll(
          () => page.getByRole('log', { name: 'Conversation' }).getByTestId('assistant-message').last().textContent(),
          POLL,
        )
        .toContain(words);
    }

    it('a Trojan Source command shows its bidi controls as markers in the target and the JSON, in their real order; Deny keeps it from running', async () => {
      const command = 'ls \u202E\u2066; touch trojan-ran\u2069 \u2066#\u2069\u202C';
      fake.enqueue(reply(toolUse('toolu_trojan', 'run_command', { command })), reply(text('Trojan done.')));
      const { page, problems } = await start('List the files');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      const target = dialog.getByTestId('approval-target');
      expect(await target.innerText()).toBe('ls ⟨U+202E⟩⟨U+2066⟩; touch trojan-ran⟨U+2069⟩ ⟨U+2066⟩#⟨U+2069⟩⟨U+202C⟩');
      // On screen, "touch" stands before "#": it is not shown as a comment.
      const touch = await textBox(target, 'touch');
      const hash = await textBox(target, '#');
      expect(readsBefore(touch, hash)).toBe(true);
      expect(await dialog.getByTestId('approval-input').innerText()).toContain(
        '"command": "ls ⟨U+202E⟩⟨U+2066⟩; touch trojan-ran⟨U+2069⟩',
      );
      expect(await dialog.getByTestId('mark-warning').innerText()).toMatch(
        /^⚠ This call contains \d+ hidden or control characters \(bidirectional control/,
      );
      const screen = await dialog.innerText();
      expect(screen).not.toMatch(BIDI);
      expect(await dialog.locator('.hidden-char').first().getAttribute('title')).toBe(
        'U+202E: RIGHT-TO-LEFT OVERRIDE (reverses the text after it)',
      );
      await screenshotBothThemes(page, 'display-trojan-command', dialog);
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
      await finished(page, 'Trojan done.');
      expect(exists('trojan-ran')).toBe(false);
      // The tool card keeps showing the markers.
      const card = page.getByRole('log', { name: 'Conversation' }).getByTestId('tool-card').last();
      expect(await card.getByTestId('tool-target').innerText()).toBe(
        'ls ⟨U+202E⟩⟨U+2066⟩; touch trojan-ran⟨U+2069⟩ ⟨U+2066⟩#⟨U+2069⟩⟨U+202C⟩',
      );
      expect(problems).toEqual([]);
    });

    it('zero-width characters in a path and the suggested rule are marked; a Trojan Source diff line is flagged', async () => {
      const name = 'access\u200B.js';
      const content =
        'const role = "user";\nif (role !== "user\u202E \u2066// admin only\u2069 \u2066") {\n  grantAdmin();\n}\n';
      fake.enqueue(reply(toolUse('toolu_zw', 'write_file', { path: name, content })), reply(text('Not written.')));
      const { page, problems } = await start('Add the access check');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getByTestId('approval-target').innerText()).toBe('access⟨U+200B⟩.js');
      expect(await dialog.getByTestId('diff-flagged').innerText()).toMatch(
        /^⚠ 1 line of this diff holds hidden or direction-changing characters/,
      );
      const flagged = dialog.locator('.diff-line[data-flagged="true"]');
      expect(await flagged.count()).toBe(1);
      expect(await flagged.innerText()).toBe('+⚠if (role !== "user⟨U+202E⟩ ⟨U+2066⟩// admin only⟨U+2069⟩ ⟨U+2066⟩") {');
      // The suggested rule holds the same zero-width character: shown under the field.
      expect(await dialog.getByRole('textbox', { name: 'Rule' }).inputValue()).toContain('\u200B');
      expect(await dialog.getByTestId('approval-rule-shown').innerText()).toContain('access⟨U+200B⟩.js');
      const screen = await dialog.innerText();
      expect(screen).not.toMatch(BIDI);
      expect(screen).not.toMatch(INVISIBLE);
      await screenshotBothThemes(page, 'display-trojan-diff', dialog);
      await waitUntilAnswerable(dialog);
      await page.keyboard.press('Escape');
      await finished(page, 'Not written.');
      expect(fs.readdirSync(project).filter((f) => f.startsWith('access'))).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('a command with a line break shows numbered lines; a very long one wraps with its tail in view', async () => {
      const long = `echo ${'A'.repeat(600)}; touch long-ran`;
      fake.enqueue(
        reply(
          toolUse('toolu_nl', 'run_command', { command: 'echo safe\ntouch newline-ran' }),
          toolUse('toolu_long', 'run_command', { command: long }),
        ),
        reply(text('Both denied.')),
      );
      const { page, problems } = await start('Run the two commands');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      const target = dialog.getByTestId('approval-target');
      expect(await target.innerText()).toBe('echo safe\ntouch newline-ran');
      expect(await dialog.getByText('Target (2 lines)').count()).toBe(1);
      const rows = target.locator('.shown-row');
      expect(await rows.count()).toBe(2);
      // Each row is numbered by generated content (so copying the command copies no numbers).
      expect(await rows.evaluateAll((els) => els.map((el) => getComputedStyle(el, '::before').content))).toEqual([
        'counter(shown-line)',
        'counter(shown-line)',
      ]);
      const [first, second] = [await textBox(target, 'echo safe'), await textBox(target, 'touch newline-ran')];
      expect(first && second && second.y > first.y).toBe(true);
      await screenshotBothThemes(page, 'display-newline-command', dialog);
      await waitUntilAnswerable(dialog);
      await page.keyboard.press('Escape');

      await expect.poll(() => dialog.getByTestId('approval-count').innerText(), POLL).toBe('call 2 of 2 in this turn');
      const longTarget = dialog.getByTestId('approval-target');
      expect(await longTarget.innerText()).toBe(long);
      const overflow = await longTarget.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      const tail = await textBox(longTarget, 'touch long-ran');
      const frame = await dialog.boundingBox();
      expect(tail && frame && tail.right <= frame.x + frame.width && tail.x >= frame.x).toBe(true);
      await screenshotBothThemes(page, 'display-long-command', dialog);
      await waitUntilAnswerable(dialog);
      await page.keyboard.press('Escape');
      await finished(page, 'Both denied.');
      expect(exists('newline-ran') || exists('long-ran')).toBe(false);
      expect(problems).toEqual([]);
    });

    it('two calls in one turn: a double click on "Allow once", and a click as the second appears, run only the first', async () => {
      fake.enqueue(
        reply(
          toolUse('toolu_c1', 'run_command', { command: 'touch first-ran' }),
          toolUse('toolu_c2', 'run_command', { command: 'touch second-ran' }),
        ),
        reply(text('Clicks done.')),
      );
      const { page, problems } = await start('Touch two files');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getByTestId('approval-count').innerText()).toBe('call 1 of 2 in this turn');
      await expect.poll(() => focusedText(page), POLL).toBe('Deny');
      // The moment the second call's dialog appears, a click and Alt+O land on it (before any timer can run).
      await page.evaluate(() => {
        const state = window as unknown as { __early?: string[] };
        state.__early = [];
        const observer = new MutationObserver(() => {
          const count = document.querySelector('[data-testid="approval-count"]');
          if (!count?.textContent?.startsWith('call 2 of 2') || state.__early?.length) return;
          const once = Array.from(document.querySelectorAll('dialog button')).find((b) =>
            b.textContent?.startsWith('Allow once'),
          );
          (once as HTMLButtonElement | undefined)?.click();
          document
            .querySelector('dialog')
            ?.dispatchEvent(new KeyboardEvent('keydown', { key: 'o', code: 'KeyO', altKey: true, bubbles: true }));
          state.__early?.push(document.querySelector('.approval-actions')?.getAttribute('data-ready') ?? 'missing');
          observer.disconnect();
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await waitUntilAnswerable(dialog);
      const once = await dialog.getByRole('button', { name: 'Allow once', exact: true }).boundingBox();
      if (!once) throw new Error('no "Allow once" button');
      await page.mouse.dblclick(once.x + once.width / 2, once.y + once.height / 2);

      await expect.poll(() => dialog.getByTestId('approval-count').innerText(), POLL).toBe('call 2 of 2 in this turn');
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __early?: string[] }).__early), POLL)
        .toEqual(['false']);
      await expect.poll(() => exists('first-ran'), POLL).toBe(true);
      // The early click, the early Alt+O and the double click's second click answered nothing: call 2 still waits.
      await waitUntilAnswerable(dialog);
      expect(await dialog.getByTestId('approval-target').innerText()).toBe('touch second-ran');
      await expect.poll(() => focusedText(page), POLL).toBe('Deny');
      expect(exists('second-ran')).toBe(false);
      await screenshotBothThemes(page, 'display-second-call', dialog);
      await page.keyboard.press('Escape');
      await finished(page, 'Clicks done.');
      expect(exists('second-ran')).toBe(false);
      expect(lastResults(fake).map((r) => r.is_error)).toEqual([false, true]);
      expect(problems).toEqual([]);
    });

    it('two calls in one turn: Alt+O pressed twice runs only the first', async () => {
      fake.enqueue(
        reply(
          toolUse('toolu_k1', 'run_command', { command: 'touch key-first' }),
          toolUse('toolu_k2', 'run_command', { command: 'touch key-second' }),
        ),
        reply(text('Keys done.')),
      );
      const { page, problems } = await start('Touch two more files');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      await waitUntilAnswerable(dialog);
      await page.keyboard.press('Alt+o');
      await page.keyboard.press('Alt+o');
      await expect.poll(() => dialog.getByTestId('approval-count').innerText(), POLL).toBe('call 2 of 2 in this turn');
      await expect.poll(() => exists('key-first'), POLL).toBe(true);
      await page.keyboard.press('Alt+o'); // a third, as the second dialog shows: still inert
      await waitUntilAnswerable(dialog);
      expect(await dialog.getByTestId('approval-target').innerText()).toBe('touch key-second');
      expect(exists('key-second')).toBe(false);
      await page.keyboard.press('Escape');
      await finished(page, 'Keys done.');
      expect(exists('key-second')).toBe(false);
      expect(problems).toEqual([]);
    });

    it('overwriting a binary file, or one over 2 MiB, says so prominently and offers only "Allow once" and "Deny"', async () => {
      fake.enqueue(
        reply(toolUse('toolu_bin', 'write_file', { path: 'tool.bin', content: 'y'.repeat(42) })),
        reply(toolUse('toolu_big', 'write_file', { path: 'big.txt', content: 'small\n' })),
        reply(text('Writes done.')),
      );
      const { page, problems } = await start('Replace the tool');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      const blind = dialog.getByTestId('approval-unpreviewable');
      expect(await blind.innerText()).toContain(
        'This write replaces a binary file of 10 bytes with 42 bytes of new content, and binary content cannot be shown: you cannot see what it changes.',
      );
      expect(await blind.innerText()).toMatch(/^No preview: tool\.bin/);
      const buttons = (await dialog.locator('.approval-actions button').allInnerTexts()).map((b) => b.trim());
      expect(buttons).toEqual(['Allow once', 'Deny']);
      expect(await dialog.getByRole('textbox', { name: 'Rule' }).count()).toBe(0);
      // The warning sits above the facts, where the eye starts.
      const [warnBox, toolBox] = [await blind.boundingBox(), await dialog.locator('.approval-facts').boundingBox()];
      expect(warnBox && toolBox && warnBox.y < toolBox.y).toBe(true);
      await screenshotBothThemes(page, 'display-binary-write', dialog);
      await waitUntilAnswerable(dialog);
      await page.keyboard.press('Alt+a');
      await page.keyboard.press('Alt+s');
      expect(await dialog.getByRole('button', { name: 'Allow once', exact: true }).isEnabled()).toBe(true);
      expect(fs.readFileSync(path.join(project, 'tool.bin'))).toEqual(BINARY);
      await dialog.getByRole('button', { name: 'Allow once', exact: true }).click();
      await expect.poll(() => fs.readFileSync(path.join(project, 'tool.bin'), 'utf8'), POLL).toBe('y'.repeat(42));

      await expect.poll(() => dialog.getByTestId('approval-target').innerText(), POLL).toBe('big.txt');
      expect(await dialog.getByTestId('approval-unpreviewable').innerText()).toContain(
        `This write replaces a file of ${BIG_BYTES.toLocaleString('en-US')} bytes with 6 bytes of new content, and it is too large to show`,
      );
      await screenshotBothThemes(page, 'display-oversized-write', dialog);
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
      await finished(page, 'Writes done.');
      expect(fs.statSync(path.join(project, 'big.txt')).size).toBe(BIG_BYTES);
      // "Allow once" stored no rule anywhere.
      expect(exists('.gatehouse/settings.local.yaml')).toBe(false);
      expect(problems).toEqual([]);
    });
  },
);
