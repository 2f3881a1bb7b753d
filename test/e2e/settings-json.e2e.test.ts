import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { openView, seriousViolations, SIZES } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-settings-json';

// A Claude Code user's settings.json in the browser shell: the deny rule of `.gatehouse/settings.json` denies the call
// and is listed on the Rules page with its file (read only there: the page writes settings.yaml), and a settings file
// where Gatehouse does not look (`~/.gatehouse/settings.json`) is under "Settings files that failed to load".
describe.skipIf(skipReason !== null)(
  `settings.json in the browser shell${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let stray: string;
    let projectJson: string;
    useChatApp(
      {
        name: 'settings-json',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: (project, home) => {
          projectJson = path.join(project, '.gatehouse', 'settings.json');
          fs.mkdirSync(path.dirname(projectJson), { recursive: true });
          fs.writeFileSync(projectJson, JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }, null, 2));
          stray = path.join(home, '.gatehouse', 'settings.json');
          fs.mkdirSync(path.dirname(stray), { recursive: true });
          fs.writeFileSync(stray, JSON.stringify({ permissions: { deny: ['Read(secrets/**)'] } }));
        },
      },
      (started) => {
        app = started;
      },
    );

    it('the deny rule of .gatehouse/settings.json denies the call; the Rules page lists it and the misplaced file', async () => {
      app.model.enqueue(
        reply(toolUse('toolu_rm', 'run_command', { command: 'rm -rf build' })),
        reply(text('It was denied.')),
      );
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Clean the build');
      await box.press('Enter');
      const card = page.getByRole('article', { name: 'Tool call run_command' });
      await expect.poll(() => card.getByTestId('decision-badge').textContent(), POLL).toMatch(/^denied.*Bash\(rm:\*\)/);
      expect(await card.getByTestId('tool-status').textContent()).toBe('not run');

      await openView(page, 'Rules');
      const rule = page.locator('.rules-row').filter({ hasText: 'Bash(rm:*)' });
      await rule.waitFor(POLL);
      expect(await rule.textContent()).toContain(projectJson);
      expect(await rule.getByRole('button').count()).toBe(0);
      expect(await page.locator('.rules-row').filter({ hasText: 'Read(secrets/**)' }).count()).toBe(1);
      const failed = page.getByRole('alert', { name: 'Settings files that failed to load' });
      expect(await failed.textContent()).toContain(
        `${stray}: not a settings file Gatehouse reads: did you mean ${path.join(app.home, 'settings.json')}?`,
      );
      expect(await failed.textContent()).toContain('only its deny and ask rules are applied');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'rules-settings-json.png') });
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  },
);
