import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, TRUST_ALL, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { CLI_PATH } from './support/start-web';
import { openView, seriousViolations } from './support/ui';

// Settings › Checkpoints in Chromium through the browser shell: the values go into the user's settings.yaml (its
// comments kept), and `gatehouse run` / `gatehouse checkpoints` follow them; the project's checkpoints on disk are
// shown and deleted after a confirmation; a malformed block is shown and never overwritten.

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-ckpt-settings';
const SETTINGS = `# my own settings: this comment stays\n${TRUST_ALL}`;
const run = promisify(execFile);

describe.skipIf(skipReason !== null)(
  `Settings › Checkpoints in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    useChatApp(
      {
        name: 'ckpt-settings',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        settings: SETTINGS,
        prepare: (project) => fs.writeFileSync(path.join(project, 'a.txt'), 'a\n'),
      },
      (started) => {
        app = started;
      },
    );

    const settingsFile = () => path.join(app.home, 'settings.yaml');

    /** The real CLI against the app's home (asynchronous: the loopback model answers from this process). */
    async function cli(...args: string[]): Promise<string> {
      const env = { ...process.env, GATEHOUSE_HOME: app.home, HOME: app.home };
      const { stdout } = await run(process.execPath, [CLI_PATH, ...args], { env, encoding: 'utf8' });
      return stdout;
    }
    const listed = async () =>
      JSON.parse(await cli('checkpoints', 'list', '--project', app.project, '--json')) as Array<{
        prompt: string;
        skipped: Array<{ path: string }>;
      }>;
    /** `gatehouse run` with one write: a prompt that may change files. */
    async function agentRun(prompt: string): Promise<void> {
      app.model.enqueue(
        reply(toolUse('t1', 'write_file', { path: `${prompt}.txt`, content: `${prompt}\n` })),
        reply(text('Done.')),
      );
      await cli('run', '--project', app.project, '--mode', 'bypassPermissions', prompt);
      expect(fs.readFileSync(path.join(app.project, `${prompt}.txt`), 'utf8')).toBe(`${prompt}\n`);
    }

    async function openSettings(): Promise<{ page: Page; problems: string[] }> {
      const context = await app.newContext({ viewport: { width: 1100, height: 1000 } });
      const { page, problems } = await openChatPage(context, app.web.url);
      await openView(page, 'Settings');
      await page.getByTestId('settings-checkpoints').waitFor();
      return { page, problems };
    }
    const usage = (page: Page) => page.getByTestId('settings-checkpoints-usage').textContent();

    it("saves the settings into settings.yaml, gatehouse run follows them; the project's checkpoints are shown and deleted", async () => {
      await agentRun('first');
      expect((await listed()).map((e) => e.prompt)).toEqual(['first']);

      const { page, problems } = await openSettings();
      const form = page.getByTestId('settings-checkpoints');
      await expect
        .poll(() => usage(page), POLL)
        .toMatch(/This project's checkpoints: 1 checkpoint, [\d.]+ KiB on disk/);
      const enabled = form.getByRole('checkbox', { name: /Take a checkpoint/ });
      const days = form.getByRole('textbox', { name: 'Keep checkpoints for (days)' });
      const mib = form.getByRole('textbox', { name: 'Largest file (MiB)' });
      const files = form.getByRole('textbox', { name: 'Most files' });
      const save = form.getByRole('button', { name: 'Save checkpoint settings' });
      expect(await enabled.isChecked()).toBe(true);
      expect([await days.inputValue(), await mib.inputValue(), await files.inputValue()]).toEqual([
        '30',
        '10',
        '50000',
      ]);
      expect(await save.isDisabled()).toBe(true); // nothing changed yet

      // Off, and limits of its own; a size over the limit is refused in the page with the reason.
      await enabled.uncheck();
      await days.fill('7');
      await files.fill('1234');
      await mib.fill('2000');
      expect(await form.textContent()).toContain('at most 1 GiB');
      expect(await mib.getAttribute('aria-invalid')).toBe('true');
      expect(await save.isDisabled()).toBe(true);
      await mib.fill('abc');
      expect(await form.textContent()).toContain('enter a number');
      await mib.fill('0.5');
      await save.click();
      await expect
        .poll(() => page.getByTestId('settings-checkpoints-status').textContent(), POLL)
        .toBe('Checkpoint settings saved.');
      const yaml = fs.readFileSync(settingsFile(), 'utf8');
      expect(yaml).toContain('# my own settings: this comment stays');
      expect(yaml).toContain('default: trust');
      expect(yaml).toMatch(
        /checkpoints:\n\s+enabled: false\n\s+maxFileBytes: 524288\n\s+maxFiles: 1234\n\s+retentionDays: 7\n/,
      );

      // Off: the next prompt takes no checkpoint.
      await agentRun('second');
      expect((await listed()).map((e) => e.prompt)).toEqual(['first']);

      // Back on, from the keyboard: the next prompt takes one, and leaves out a file over the 0.5 MiB saved above.
      await enabled.focus();
      await page.keyboard.press('Space');
      await save.press('Enter');
      await expect.poll(() => fs.readFileSync(settingsFile(), 'utf8'), POLL).toContain('enabled: true');
      fs.writeFileSync(path.join(app.project, 'big.bin'), Buffer.alloc(600 * 1024, 1));
      await agentRun('third');
      const [third] = await listed();
      expect(third).toMatchObject({ prompt: 'third', skipped: [{ path: 'big.bin' }] });
      // Taken by another program: shown when the page is opened again.
      await openView(page, 'Chat');
      await openView(page, 'Settings');
      await expect.poll(() => usage(page), POLL).toContain('2 checkpoints');
      await page
        .getByTestId('settings-checkpoints-section')
        .screenshot({ path: path.join(SCREENSHOTS, 'settings-checkpoints.png') });
      expect(await seriousViolations(page, '[data-testid="settings-checkpoints-section"]')).toEqual([]);

      // Delete: Cancel keeps them; confirming deletes them (the project's files stay).
      const remove = page.getByRole('button', { name: "Delete this project's checkpoints" });
      await remove.click();
      const dialog = page.getByRole('dialog', { name: "Delete this project's checkpoints?" });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count(), POLL).toBe(0);
      expect(await listed()).toHaveLength(2);
      await remove.click();
      await dialog.getByRole('button', { name: 'Delete checkpoints' }).click();
      await expect
        .poll(() => page.getByTestId('settings-checkpoints-delete-status').textContent(), POLL)
        .toBe('Deleted 2 checkpoints of this project.');
      expect(await usage(page)).toContain('0 checkpoints, 0 bytes on disk');
      expect(await remove.isDisabled()).toBe(true);
      expect(await listed()).toEqual([]);
      expect(fs.readFileSync(path.join(app.project, 'third.txt'), 'utf8')).toBe('third\n');
      expect(problems).toEqual([]);
    });

    it('a malformed checkpoints block is shown with the file and reason; saving is off and the file stays as it is', async () => {
      const broken = `${SETTINGS}checkpoints:\n  retentionDays: soon # fix me\n`;
      fs.writeFileSync(settingsFile(), broken);
      const { page, problems } = await openSettings();
      const warning = page.getByTestId('settings-checkpoints-problem');
      await expect.poll(() => warning.textContent(), POLL).toContain(`${settingsFile()}: checkpoints.retentionDays`);
      const form = page.getByTestId('settings-checkpoints');
      // The defaults are in effect meanwhile, and shown.
      expect(await form.getByRole('textbox', { name: 'Keep checkpoints for (days)' }).inputValue()).toBe('30');
      await form.getByRole('textbox', { name: 'Most files' }).fill('99');
      expect(await form.getByRole('button', { name: 'Save checkpoint settings' }).isDisabled()).toBe(true);
      await form.getByRole('textbox', { name: 'Most files' }).press('Enter');
      expect(fs.readFileSync(settingsFile(), 'utf8')).toBe(broken);
      expect(problems).toEqual([]);
    });
  },
);
