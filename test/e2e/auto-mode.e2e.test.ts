import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { openApiSocket } from './support/api-socket';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, TRUST_ALL, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import type { RunningWeb } from './support/start-web';

// Auto mode in the real page (browser shell, Chromium): the mode picker, the classifier's allow on the tool card,
// its block in the approval dialog, the fallback to manual approval in the mode indicator, and the refusal in an
// untrusted project. The loopback model plays the agent and, by model name, the classifier.

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-auto';
const CLASSIFIER = 'gatekeeper-page';
const verdict = (decision: string, reason: string) => reply(toolUse('toolu_c', 'classify', { decision, reason }));

describe.skipIf(skipReason !== null)(
  `auto mode in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 120_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let web: RunningWeb;
    let fake: FakeAnthropic;
    let project: string;
    useChatApp(
      {
        name: 'auto',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        settings: `${TRUST_ALL}auto:\n  classifierModel: ${CLASSIFIER}\n`,
      },
      (started) => {
        app = started;
        ({ model: fake, web, project } = started);
      },
    );

    async function openPage(): Promise<{ page: Page; problems: string[] }> {
      const { page, problems } = await openChatPage(
        await app.newContext({ viewport: { width: 1200, height: 900 } }),
        web.url,
        ['error'],
      );
      await expect.poll(() => page.getByRole('combobox', { name: 'Permission mode' }).isEnabled(), POLL).toBe(true);
      return { page, problems };
    }

    async function send(page: Page, message: string): Promise<void> {
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill(message);
      await box.press('Enter');
    }

    it('the classifier allows a command (badge with its reason, cost shown); 3 blocks ask you, then it falls back', async () => {
      const { page, problems } = await openPage();
      const modeSelect = page.getByRole('combobox', { name: 'Permission mode' });
      await modeSelect.selectOption('auto');
      await expect.poll(() => page.getByTestId('permission-mode-source').textContent(), POLL).toContain('this session');
      expect(await page.getByRole('dialog').count()).toBe(0); // no confirmation, unlike bypass

      fake.enqueue(
        reply(toolUse('toolu_a1', 'run_command', { command: 'touch made-by-auto.txt' })),
        reply(text('Made.')),
      );
      fake.enqueueFor(CLASSIFIER, verdict('allow', 'creating the file you asked for'));
      await send(page, 'Create made-by-auto.txt');
      await expect.poll(() => fs.existsSync(path.join(project, 'made-by-auto.txt')), POLL).toBe(true);
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(await page.getByTestId('decision-badge').last().textContent()).toMatch(
        /allowed by the auto-mode classifier: creating the file you asked for/,
      );
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect
        .poll(() => log.textContent(), POLL)
        .toMatch(/Auto mode's classifier: 1 call \(1 allowed, 0 blocked\)/);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'auto-allowed.png'), fullPage: true });

      fake.enqueue(
        reply(toolUse('toolu_b1', 'run_command', { command: 'make one' })),
        reply(toolUse('toolu_b2', 'run_command', { command: 'make two' })),
        reply(toolUse('toolu_b3', 'run_command', { command: 'make three' })),
        reply(toolUse('toolu_b4', 'run_command', { command: 'make four' })),
        reply(text('Stopped.')),
      );
      fake.enqueueFor(CLASSIFIER, verdict('block', 'not part of the task'), verdict('block', 'not part of the task'));
      fake.enqueueFor(CLASSIFIER, verdict('block', 'not part of the task'));
      await send(page, 'Build everything');
      const dialog = page.getByRole('dialog');
      const commands = ['make one', 'make two', 'make three', 'make four'];
      for (let i = 0; i < 4; i++) {
        // One dialog at a time: the next call's ask may replace the answered one without the dialog closing.
        await dialog.waitFor({ state: 'visible' });
        await expect.poll(() => dialog.getByTestId('approval-target').textContent(), POLL).toBe(commands[i]);
        await waitUntilAnswerable(dialog);
        const reason = (await dialog.getByTestId('approval-reason').textContent()) ?? '';
        if (i < 3) expect(reason).toContain('the auto-mode classifier blocked it: not part of the task');
        else expect(reason).toMatch(/fell back to manual approval/);
        if (i === 0) await page.screenshot({ path: path.join(SCREENSHOTS, 'auto-blocked-dialog.png') });
        await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
      }
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      expect(fake.requests.filter((r) => r.body.model === CLASSIFIER)).toHaveLength(4); // 1 allow + 3 blocks
      expect(await modeSelect.inputValue()).toBe('auto');
      expect(await page.getByTestId('permission-mode-source').textContent()).toMatch(
        /blocked 3 calls in a row: auto mode fell back to manual approval/,
      );
      expect(await log.textContent()).toMatch(/Auto mode: the classifier blocked 3 calls in a row/);
      // The cards of the blocked calls say what the classifier said; the fourth was never shown to it.
      expect(await page.getByTestId('decision-classifier').allTextContents()).toEqual(
        Array(3).fill('auto-mode classifier blocked it: not part of the task'),
      );
      await page.screenshot({ path: path.join(SCREENSHOTS, 'auto-fallback.png'), fullPage: true });
      expect(problems).toEqual([]);
    });

    it('in an untrusted project auto is disabled with the reason, and main refuses a forged request', async () => {
      const socket = await openApiSocket(web.port, { token: web.token });
      try {
        expect(await socket.call('setTrust', { path: project, scope: 'never' })).toMatchObject({ kind: 'response' });
        const { page, problems } = await openPage();
        const select = page.getByRole('combobox', { name: 'Permission mode' });
        const autoOption = select.locator('option[value="auto"]');
        expect(await autoOption.isDisabled()).toBe(true);
        expect(await autoOption.textContent()).toContain('(unavailable)');
        expect(await autoOption.getAttribute('title')).toMatch(/auto is unavailable in a project that is not trusted/);
        expect(await socket.call('setPermissionMode', { mode: 'auto' })).toMatchObject({
          kind: 'error',
          error: { code: 'FORBIDDEN', message: expect.stringMatching(/auto is unavailable.*not trusted/) },
        });
        expect(problems).toEqual([]);
      } finally {
        await socket.close();
      }
    });

    it('the classifier model is set on the Settings page, checked as you type, and saved in your settings.yaml', async () => {
      const { page, problems } = await openPage();
      await page
        .getByRole('navigation', { name: 'Sidebar' })
        .getByRole('list', { name: 'Views' })
        .getByRole('button', { name: 'Settings', exact: true })
        .click();
      const settings = page.getByTestId('settings-view');
      await settings.waitFor();
      const box = settings.getByRole('textbox', { name: 'Classifier model', exact: true });
      expect(await box.getAttribute('placeholder')).toBe(CLASSIFIER);
      await box.fill('two words');
      expect(await settings.getByRole('button', { name: 'Save classifier model' }).isDisabled()).toBe(true);
      await box.fill('claude-small-e2e');
      await settings.getByRole('button', { name: 'Save classifier model' }).click();
      await expect
        .poll(() => settings.getByTestId('settings-classifier-model-status').textContent(), POLL)
        .toBe('Classifier model saved.');
      expect(fs.readFileSync(path.join(app.home, 'settings.yaml'), 'utf8')).toMatch(
        /^ {2}classifierModel: claude-small-e2e$/m,
      );
      expect(await settings.getByTestId('settings-classifier-model').textContent()).toContain(
        'In auto mode, claude-small-e2e answers',
      );
      expect(problems).toEqual([]);
    });
  },
);
