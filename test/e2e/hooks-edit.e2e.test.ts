import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { CLI_PATH } from './support/start-web';
import { openView, seriousViolations, setTheme, SIZES } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-hooks-edit';

interface ListedHook {
  event: string;
  matcher: string;
  command: string | null;
  timeout: number;
  source: string;
  file: string;
}

/** `gatehouse hooks list --json` for the project, against the server's config dir: what the engine will run. */
function cliHooks(home: string, project: string): ListedHook[] {
  const out = execFileSync(process.execPath, [CLI_PATH, 'hooks', 'list', '--project', project, '--json'], {
    env: { ...process.env, GATEHOUSE_HOME: home, HOME: home },
    encoding: 'utf8',
  });
  return (JSON.parse(out.trim().split('\n').pop() ?? '{}') as { hooks: ListedHook[] }).hooks;
}

function scopeRows(page: Page, scope: string) {
  return page.getByRole('region', { name: scope, exact: true }).getByTestId('hook-row');
}

// The Hooks page edits the hooks of Gatehouse's own settings files; Claude Code's stay read only.
describe.skipIf(skipReason !== null)(
  `editing hooks in the browser shell${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    useChatApp(
      {
        name: 'hooks-edit',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        settings: '# my settings: keep this comment\ntrust:\n  default: trust\n',
        prepare: (project) => {
          fs.mkdirSync(path.join(project, '.claude'));
          fs.writeFileSync(
            path.join(project, '.claude/settings.json'),
            JSON.stringify({
              hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './format.sh' }] }] },
            }),
          );
        },
      },
      (started) => {
        app = started;
      },
    );

    it('adds a hook with the keyboard: an invalid matcher is shown and not saved; listed, and in `hooks list --json`', async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await openView(page, 'Hooks');
      await expect.poll(() => scopeRows(page, 'Project').count(), POLL).toBe(1);
      // Claude Code's hook: read only, with the reason, no Edit or Delete.
      const claude = scopeRows(page, 'Project').first();
      expect(await claude.textContent()).toMatch(/read only: Claude Code's settings file/);
      expect(await claude.getByRole('button').count()).toBe(0);

      await page.getByRole('button', { name: 'Add hook', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a hook' });
      await dialog.waitFor();
      const found: string[] = [];
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        for (const v of await seriousViolations(page, '.hook-dialog')) found.push(`${theme}: ${v}`);
      }
      expect(found).toEqual([]);
      // Focus starts on the first field (Scope): the rest by keyboard.
      expect(await dialog.getByLabel('Scope').evaluate((el) => el === document.activeElement)).toBe(true);
      await dialog.getByLabel('Event').selectOption('PreToolUse');
      const matcher = dialog.getByLabel('Matcher');
      await matcher.fill('Bash(');
      await expect
        .poll(() => dialog.getByTestId('matcher-hint').textContent(), POLL)
        .toMatch(/not a valid regular expression/);
      expect(await matcher.getAttribute('aria-invalid')).toBe('true');
      await dialog.getByLabel('Command').fill('./guard.sh');
      expect(await dialog.getByRole('button', { name: 'Add hook' }).isDisabled()).toBe(true);
      await dialog.getByLabel('Command').press('Enter'); // refused while the matcher is invalid
      expect(await dialog.isVisible()).toBe(true);
      expect(fs.readFileSync(path.join(app.home, 'settings.yaml'), 'utf8')).not.toContain('guard.sh');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'hooks-add-invalid-matcher.png') });

      await matcher.fill('Bash|Edit');
      await expect.poll(() => dialog.getByTestId('matcher-hint').textContent(), POLL).not.toMatch(/not a valid/);
      expect(await matcher.getAttribute('aria-invalid')).toBe('false');
      await dialog.getByLabel('Timeout (seconds)').fill('10');
      await dialog.getByLabel('Command').press('Enter');
      await dialog.waitFor({ state: 'detached' });

      await expect.poll(() => scopeRows(page, 'User').count(), POLL).toBe(1);
      const row = scopeRows(page, 'User').first();
      expect(await row.textContent()).toContain('./guard.sh');
      expect(await row.textContent()).toContain('Bash|Edit');
      expect(await row.textContent()).toContain('timeout 10 s');
      expect(await row.getAttribute('data-active')).toBe('true');
      expect(cliHooks(app.home, app.project)).toContainEqual(
        expect.objectContaining({
          event: 'PreToolUse',
          matcher: 'Bash|Edit',
          command: './guard.sh',
          timeout: 10,
          source: 'user',
        }),
      );
      expect(fs.readFileSync(path.join(app.home, 'settings.yaml'), 'utf8')).toContain(
        '# my settings: keep this comment',
      );
      await page.screenshot({ path: path.join(SCREENSHOTS, 'hooks-added.png') });
      expect(problems).toEqual([]);
    });

    it('edits the hook and deletes it after confirming', async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await openView(page, 'Hooks');
      await expect.poll(() => scopeRows(page, 'User').count(), POLL).toBe(1);
      await page.getByRole('button', { name: 'Edit PreToolUse hook ./guard.sh' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit hook' });
      await dialog.waitFor();
      expect(await dialog.getByLabel('Event').evaluate((el) => el === document.activeElement)).toBe(true);
      await dialog.getByLabel('Command').fill('./guard.sh --strict');
      await dialog.getByLabel('Event').selectOption('PostToolUse');
      await dialog.getByRole('button', { name: 'Save hook' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => scopeRows(page, 'User').first().textContent(), POLL).toContain('./guard.sh --strict');
      expect(cliHooks(app.home, app.project).filter((h) => h.source === 'user')).toEqual([
        expect.objectContaining({
          event: 'PostToolUse',
          matcher: 'Bash|Edit',
          command: './guard.sh --strict',
          timeout: 10,
        }),
      ]);

      // Delete asks first; Cancel (focused: the safe answer) keeps it.
      const del = page.getByRole('button', { name: 'Delete PostToolUse hook ./guard.sh --strict' });
      await del.click();
      const confirm = page.getByRole('dialog', { name: 'Delete this PostToolUse hook?' });
      await confirm.waitFor();
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      expect(cliHooks(app.home, app.project).some((h) => h.source === 'user')).toBe(true);
      await del.click();
      await confirm.getByRole('button', { name: 'Delete hook' }).click();
      await expect.poll(() => scopeRows(page, 'User').count(), POLL).toBe(0);
      expect(cliHooks(app.home, app.project).some((h) => h.source === 'user')).toBe(false);
      expect(await page.getByTestId('hooks-status').textContent()).toContain('Deleted the PostToolUse hook');
      // Claude Code's project hook is still there, untouched.
      expect(cliHooks(app.home, app.project)).toEqual([expect.objectContaining({ command: './format.sh' })]);
      expect(problems).toEqual([]);
    });
  },
);
