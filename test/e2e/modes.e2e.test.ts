import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { openApiSocket } from './support/api-socket';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import type { RunningWeb } from './support/start-web';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-modes';

async function focusedText(page: Page): Promise<string> {
  return page.evaluate(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement.innerText.trim() : '',
  );
}

describe.skipIf(skipReason !== null)(
  `permission modes and "Run this plan" in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 90_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let web: RunningWeb;
    let fake: FakeAnthropic;
    let project: string;
    useChatApp(
      { name: 'modes', startModel: () => startFakeAnthropic({ apiKey: API_KEY }), env: { ANTHROPIC_API_KEY: API_KEY } },
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

    it('acceptEdits for the session: the write the model asks for runs without a dialog and the file changes', async () => {
      const { page, problems } = await openPage();
      const modeSelect = page.getByRole('combobox', { name: 'Permission mode' });
      expect(await modeSelect.inputValue()).toBe('default');
      expect(await page.getByTestId('permission-mode-source').textContent()).toContain('built-in default');
      await modeSelect.selectOption('acceptEdits');
      await expect.poll(() => page.getByTestId('permission-mode-source').textContent(), POLL).toContain('this session');

      fake.enqueue(
        reply(toolUse('toolu_ae_1', 'write_file', { path: 'accepted.txt', content: 'written without asking\n' })),
        reply(text('Wrote accepted.txt.')),
      );
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Create accepted.txt');
      await box.press('Enter');
      await expect
        .poll(
          () =>
            fs.existsSync(path.join(project, 'accepted.txt')) &&
            fs.readFileSync(path.join(project, 'accepted.txt'), 'utf8'),
          POLL,
        )
        .toBe('written without asking\n');
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(await page.getByTestId('decision-badge').last().textContent()).toMatch(/acceptEdits/);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'modes-accept-edits.png'), fullPage: true });
      expect(problems).toEqual([]);
    });

    it('the agent-mode chooser says what each mode does: the chosen one under the box (its description), each option as a tooltip', async () => {
      const { page, problems } = await openPage();
      const agentMode = page.getByRole('combobox', { name: 'Agent mode' });
      /** The select's accessible description: the text of what aria-describedby names. */
      const description = () =>
        agentMode.evaluate((el) =>
          (el.getAttribute('aria-describedby') ?? '')
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' ')
            .trim(),
        );
      const hint = page.getByTestId('agent-mode-hint');
      expect(await agentMode.inputValue()).toBe('chat');
      // Chat is not read-only: it says so where it is chosen.
      expect(await hint.textContent()).toBe('Chat mode: talks with you, and may edit files and run commands.');
      expect(await description()).toBe(await hint.textContent());
      await agentMode.selectOption('plan');
      await expect
        .poll(() => hint.textContent(), POLL)
        .toBe('Plan mode: reads only and writes a plan; changes nothing.');
      expect(await description()).toBe(await hint.textContent());
      await agentMode.selectOption('do');
      await expect.poll(() => hint.textContent(), POLL).toMatch(/^Do mode: carries out a plan you confirmed/);
      const titles = await agentMode
        .locator('option')
        .evaluateAll((options) => options.map((o) => `${o.textContent ?? ''} = ${o.getAttribute('title') ?? ''}`));
      expect(titles).toEqual([
        'Chat = Chat: talks with you, and may edit files and run commands',
        'Plan = Plan: reads only and writes a plan; changes nothing',
        'Do = Do: carries out a plan you confirmed: edits files, runs commands',
      ]);
      expect(problems).toEqual([]);
    });

    it('a finished plan offers "Run this plan" (keyboard): it switches to Do and sends a Do-mode run', async () => {
      const { page, problems } = await openPage();
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('plan');
      fake.enqueue(reply(text('Plan:\n\n1. Create `plan.txt` with "step one".\n2. Report back.')));
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Plan how to add plan.txt');
      await box.press('Enter');
      const runPlan = page.getByRole('button', { name: 'Run this plan' });
      await runPlan.waitFor();
      const planRequest = fake.requests[fake.requests.length - 1]!;
      expect((planRequest.body.tools ?? []).map((t) => t.name)).not.toContain('write_file');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'modes-run-this-plan.png'), fullPage: true });
      // The bar lines up with the message box under it.
      const bar = await page.getByRole('group', { name: 'The plan is ready' }).boundingBox();
      const composer = await page.locator('form.composer').boundingBox();
      expect(bar && composer && [Math.round(bar.x), Math.round(bar.x + bar.width)]).toEqual(
        composer && [Math.round(composer.x), Math.round(composer.x + composer.width)],
      );

      fake.enqueue(
        reply(toolUse('toolu_plan_1', 'write_file', { path: 'plan.txt', content: 'step one\n' })),
        reply(text('Done: plan.txt created.')),
      );
      const before = fake.requests.length;
      await runPlan.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => fs.existsSync(path.join(project, 'plan.txt')), POLL).toBe(true);
      expect(await page.getByRole('combobox', { name: 'Agent mode' }).inputValue()).toBe('do');
      const doRequest = fake.requests[before]!;
      expect((doRequest.body.tools ?? []).map((t) => t.name)).toContain('write_file');
      const lastUser = doRequest.body.messages.filter((m) => m.role === 'user').pop();
      expect(JSON.stringify(lastUser?.content)).toContain('carry out the plan above');
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      expect(await runPlan.count()).toBe(0); // offered once, for the plan that just finished
      expect(problems).toEqual([]);
    });

    it('bypass asks for confirmation (focus on Cancel); in an untrusted project it is disabled and main refuses it', async () => {
      const { page, problems } = await openPage();
      const modeSelect = page.getByRole('combobox', { name: 'Permission mode' });
      const start = await modeSelect.inputValue();
      await modeSelect.selectOption('bypassPermissions');
      const dialog = page.getByRole('dialog', { name: 'Turn on bypass mode?' });
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getAttribute('aria-modal')).toBe('true');
      expect(await dialog.textContent()).toContain('without asking you');
      await expect.poll(() => focusedText(page), POLL).toBe('Cancel');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'modes-bypass-confirm.png') });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await modeSelect.inputValue()).toBe(start);

      await modeSelect.selectOption('bypassPermissions');
      await dialog.getByRole('button', { name: 'Turn on bypass' }).click();
      await expect.poll(() => modeSelect.inputValue(), POLL).toBe('bypassPermissions');

      // Trust is withdrawn (from another window of the app): this page's session drops out of bypass at once.
      const other = await openApiSocket(web.port, { token: web.token });
      try {
        expect(await other.call('setTrust', { path: project, scope: 'never' })).toMatchObject({
          kind: 'response',
          result: { status: { trusted: false } },
        });
      } finally {
        await other.close();
      }
      await expect.poll(() => modeSelect.inputValue(), POLL).toBe('default');
      expect(await page.getByTestId('permission-mode-notice').textContent()).toMatch(/no longer trusted: bypass ended/);
      expect(await modeSelect.locator('option[value="bypassPermissions"]').isDisabled()).toBe(true);
      // A page opened now cannot choose it either.
      const second = await openPage();
      const select2 = second.page.getByRole('combobox', { name: 'Permission mode' });
      expect(await select2.inputValue()).toBe('default');
      const bypassOption = select2.locator('option[value="bypassPermissions"]');
      expect(await bypassOption.isDisabled()).toBe(true);
      expect(await bypassOption.textContent()).toContain('(unavailable)');
      expect(await second.page.getByTestId('permission-mode-source').textContent()).toMatch(
        /bypass is unavailable in a project that is not trusted/,
      );
      await second.page.screenshot({ path: path.join(SCREENSHOTS, 'modes-bypass-untrusted.png'), fullPage: true });

      // A forged request from a page: a clear error, and nothing changes.
      const socket = await openApiSocket(web.port, { token: web.token });
      try {
        const refused = await socket.call('setPermissionMode', { mode: 'bypassPermissions' });
        expect(refused).toMatchObject({
          kind: 'error',
          error: { code: 'FORBIDDEN', message: expect.stringMatching(/not trusted/) },
        });
        expect(await socket.call('getPermissionMode', {})).toMatchObject({
          kind: 'response',
          result: { mode: 'default', trusted: false },
        });
      } finally {
        await socket.close();
      }
      expect([...problems, ...second.problems]).toEqual([]);
    });
  },
);
