import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { CLI_PATH } from './support/start-web';
import { openView, seriousViolations, setTheme, SIZES } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-hooks';

/** `gatehouse trust status DIR --json` against the server's config dir: what the trust store really holds. */
function cliTrust(home: string, dir: string): { trusted: boolean; extensions?: Record<string, boolean> } {
  const out = execFileSync(process.execPath, [CLI_PATH, 'trust', 'status', dir, '--json'], {
    env: { ...process.env, GATEHOUSE_HOME: home, HOME: home },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}');
}

/** The rows of the Hooks page's table for one scope ("User", "Project", "Local"). */
function scopeRows(page: Page, scope: string) {
  return page.getByRole('region', { name: scope, exact: true }).getByTestId('hook-row');
}

describe.skipIf(skipReason !== null)(
  `hooks in the browser shell${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let fake: FakeAnthropic;
    let denyScript = '';
    useChatApp(
      {
        name: 'hooks',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        // No trust default: the folder asks, so the trust dialog's switches can be used.
        settings: 'trust:\n  default: ask\n',
        prepare: (project, home) => {
          // A user hook (runs as you): Claude Code's exit 2 blocks a Read with stderr as the reason.
          denyScript = path.join(home, 'no-secrets.sh');
          fs.writeFileSync(denyScript, '#!/bin/sh\necho "secrets are not read here" >&2\nexit 2\n', { mode: 0o755 });
          fs.appendFileSync(
            path.join(home, 'settings.yaml'),
            `hooks:\n  PreToolUse:\n    - matcher: Read\n      hooks:\n        - type: command\n          command: sh ${denyScript}\n`,
          );
          // A project hook (Claude Code's file) and a local one: they run only while trust enables hooks.
          fs.mkdirSync(path.join(project, '.claude'));
          fs.writeFileSync(
            path.join(project, '.claude/settings.json'),
            JSON.stringify({
              hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './format.sh' }] }] },
            }),
          );
          fs.writeFileSync(path.join(project, 'notes.txt'), 'one\n');
          fs.writeFileSync(path.join(project, 'CLAUDE.md'), 'Answer briefly. MARKER-INSTRUCTIONS\n');
        },
      },
      (started) => {
        app = started;
        fake = started.model;
      },
    );

    it('the trust dialog switches hooks off; the Hooks page says the project hook does not run; Trusted folders switches it on', async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      const dialog = page.getByRole('dialog', { name: 'Do you trust this folder?' });
      await dialog.waitFor();
      const switches = dialog.getByRole('group', { name: 'If you trust it, enable its' });
      for (const name of ['Rules', 'Hooks', 'Instructions'])
        expect(await switches.getByRole('checkbox', { name, exact: true }).isChecked()).toBe(true);
      // The switch says what the project has of it (from the preview).
      await expect
        .poll(() => switches.getByRole('checkbox', { name: 'Hooks', exact: true }).getAttribute('aria-describedby'))
        .toBeTruthy();
      expect(await switches.textContent()).toContain('1 hook in this project');
      await switches.getByRole('checkbox', { name: 'Hooks', exact: true }).uncheck();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'hooks-trust-dialog.png') });
      await dialog.getByRole('button', { name: 'Trust this folder', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => cliTrust(app.home, app.project).trusted, POLL).toBe(true);
      expect(cliTrust(app.home, app.project).extensions).toEqual({
        rules: true,
        hooks: false,
        instructions: true,
        mcp: true,
      });

      // The Hooks page: per scope, with the project hook inactive and why.
      await openView(page, 'Hooks');
      await page.getByRole('heading', { name: 'Hooks', level: 2 }).waitFor();
      await expect.poll(() => scopeRows(page, 'User').count(), POLL).toBe(1);
      const user = scopeRows(page, 'User').first();
      expect(await user.textContent()).toContain(`sh ${denyScript}`);
      expect(await user.textContent()).toContain('PreToolUse');
      expect(await user.getAttribute('data-active')).toBe('true');
      const projectRow = scopeRows(page, 'Project').first();
      expect(await projectRow.textContent()).toContain('./format.sh');
      expect(await projectRow.textContent()).toContain('Claude Code, read only');
      expect(await projectRow.getAttribute('data-active')).toBe('false');
      expect(await projectRow.textContent()).toMatch(/trust does not enable its hooks/);
      expect(await page.getByTestId('hooks-trust-note').textContent()).toMatch(/trust does not enable hooks/);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'hooks-page-inactive.png') });
      expect(await page.getByRole('region', { name: 'Local', exact: true }).textContent()).toContain('No local hooks.');

      // Trusted folders: the row's Hooks switch turns them on (keyboard: Space on the focused checkbox).
      await page.getByTestId('hooks-trust-note').getByRole('button', { name: 'Open Trusted folders' }).click();
      const hooksSwitch = page.getByRole('checkbox', { name: `Hooks for ${app.project}` });
      await hooksSwitch.waitFor();
      expect(await hooksSwitch.isChecked()).toBe(false);
      expect(await page.getByRole('checkbox', { name: `Rules for ${app.project}` }).isChecked()).toBe(true);
      await hooksSwitch.focus();
      await page.keyboard.press('Space');
      await expect
        .poll(() => cliTrust(app.home, app.project).extensions, POLL)
        .toEqual({ rules: true, hooks: true, instructions: true, mcp: true });
      await expect.poll(() => hooksSwitch.isChecked(), POLL).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'hooks-trusted-folders.png') });
      await openView(page, 'Hooks');
      await expect.poll(() => scopeRows(page, 'Project').first().getAttribute('data-active'), POLL).toBe('true');
      expect(await page.getByTestId('hooks-trust-note').count()).toBe(0);

      // Switching instructions off from the page is stored too.
      await openView(page, 'Trusted folders');
      // (The switch shows the stored state: it turns once main has written it.)
      const instructions = page.getByRole('checkbox', { name: `Instructions for ${app.project}` });
      await instructions.click();
      await expect.poll(() => instructions.isChecked(), POLL).toBe(false);
      await expect
        .poll(() => cliTrust(app.home, app.project).extensions, POLL)
        .toEqual({ rules: true, hooks: true, instructions: false, mcp: true });
      expect(problems).toEqual([]);
    });

    it("a tool card shows the hook that denied its call, with the hook's message", async () => {
      fake.enqueue(reply(toolUse('toolu_h1', 'read_file', { path: 'notes.txt' })), reply(text('The hook said no.')));
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Read the notes');
      await box.press('Enter');
      const card = page.getByRole('article', { name: 'Tool call read_file' });
      const runs = card.getByRole('list', { name: 'Hook runs' });
      await runs.waitFor({ timeout: 20_000 });
      const line = (await runs.textContent()) ?? '';
      expect(line).toContain('PreToolUse hook');
      expect(line).toContain(`sh ${denyScript}`);
      expect(line).toContain('(user)');
      expect(line).toContain('denied');
      expect(line).toContain('secrets are not read here');
      await expect.poll(() => card.getByTestId('decision-badge').textContent(), POLL).toMatch(/^denied/);
      expect(await card.getByTestId('tool-status').textContent()).toBe('not run');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'hooks-tool-card.png') });
      // It survives a reload (the decision event is stored in the transcript).
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
      await page.reload();
      await page
        .getByRole('article', { name: 'Tool call read_file' })
        .getByRole('list', { name: 'Hook runs' })
        .waitFor();
      expect(problems).toEqual([]);
    });

    it('the Instructions switch decides whether CLAUDE.md reaches the model (the system prompt the model server got)', async () => {
      // The first test left this folder trusted with instructions off.
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      const send = async (prompt: string): Promise<string> => {
        const before = fake.requests.length;
        fake.enqueue(reply(text('ok')));
        const box = page.getByRole('textbox', { name: 'Message' });
        await box.fill(prompt);
        await box.press('Enter');
        await expect.poll(() => fake.requests.length, POLL).toBeGreaterThan(before);
        await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
        return String(fake.requests.at(-1)?.body.system ?? '');
      };
      const off = await send('Hello without instructions');
      expect(off).toContain('You are Gatehouse');
      expect(off).not.toContain('MARKER-INSTRUCTIONS');
      await openView(page, 'Trusted folders');
      const instructions = page.getByRole('checkbox', { name: `Instructions for ${app.project}` });
      expect(await instructions.isChecked()).toBe(false);
      await instructions.click();
      await expect.poll(() => instructions.isChecked(), POLL).toBe(true);
      await openView(page, 'Chat');
      expect(await send('Hello with instructions')).toContain('MARKER-INSTRUCTIONS');
      expect(problems).toEqual([]);
    });

    it('the Hooks page passes axe in both themes', async () => {
      const { page } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await openView(page, 'Hooks');
      await expect.poll(() => page.getByTestId('hook-row').count(), POLL).toBe(2);
      const found: string[] = [];
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        for (const v of await seriousViolations(page)) found.push(`${theme}: ${v}`);
      }
      expect(found).toEqual([]);
    });
  },
);
