import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason, launchChromium } from './support/browser';
import { makeTempDir, removeTempDir, REPO_ROOT, requireBuiltApp, startWeb } from './support/start-web';
import type { RunningWeb } from './support/start-web';

// The approval dialog for a command the model wants to run outside the OS sandbox: two answers and a warning.

const skipReason = chromiumSkipReason();
const SCREENSHOTS = path.join(REPO_ROOT, 'test-results/e2e');
const POLL = { timeout: 20_000, interval: 100 };
const API_KEY = 'test-key-never-on-the-page';

describe.skipIf(skipReason !== null)(`the unsandboxed-command approval in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, { timeout: 90_000 }, () => {
  let web: RunningWeb;
  let browser: Browser;
  let fake: FakeAnthropic;
  let project: string;
  let home: string;
  let outside: string;
  const savedEnv = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };

  beforeAll(async () => {
    requireBuiltApp();
    fake = await startFakeAnthropic({ apiKey: API_KEY });
    project = makeTempDir('gh-e2e-unsandboxed-');
    home = makeTempDir('gh-e2e-unsandboxed-home-');
    outside = fs.mkdtempSync('/var/tmp/gh-e2e-unsandboxed-out-');
    fs.writeFileSync(path.join(home, 'settings.yaml'), 'trust:\n  default: trust\n');
    process.env.ANTHROPIC_API_KEY = API_KEY;
    process.env.ANTHROPIC_BASE_URL = fake.baseURL;
    web = await startWeb({ project, home });
    browser = await launchChromium();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    await fake?.close();
    for (const dir of [project, home]) if (dir) removeTempDir(dir);
    if (outside) fs.rmSync(outside, { recursive: true, force: true });
    if (savedEnv.key === undefined) delete process.env.ANTHROPIC_API_KEY;
    else process.env.ANTHROPIC_API_KEY = savedEnv.key;
    if (savedEnv.url === undefined) delete process.env.ANTHROPIC_BASE_URL;
    else process.env.ANTHROPIC_BASE_URL = savedEnv.url;
  });

  it('shows only "Allow once" and "Deny" with the warning, no rule field; "Allow once" runs it outside', async () => {
    const marker = path.join(outside, 'made-outside');
    fake.enqueue(reply(toolUse('toolu_out_1', 'run_command', { command: `touch ${marker}`, unsandboxed: true })), reply(text('Ran it outside.')));
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    try {
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      await page.goto(web.url);
      await expect.poll(() => page.getByRole('textbox', { name: 'Message' }).isEnabled(), POLL).toBe(true);
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
      await page.getByRole('textbox', { name: 'Message' }).fill('Touch the marker outside the project');
      await page.keyboard.press('Enter');

      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getByTestId('approval-target').textContent()).toBe(`touch ${marker}`);
      expect(await dialog.getByTestId('approval-unsandboxed').textContent()).toContain(
        'Runs outside the sandbox: it can write anywhere, read your secrets and use the network',
      );
      const buttons = (await dialog.getByRole('button').allTextContents()).map((t) => t.trim());
      expect(buttons.some((b) => b.startsWith('Allow once'))).toBe(true);
      expect(buttons.some((b) => b.startsWith('Deny'))).toBe(true);
      expect(buttons.filter((b) => /session|always/i.test(b))).toEqual([]);
      expect(await dialog.getByRole('textbox', { name: 'Rule' }).count()).toBe(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'approval-unsandboxed.png') });
      expect(fs.existsSync(marker)).toBe(false);

      await dialog.getByRole('button', { name: /^Allow once/ }).click();
      await dialog.waitFor({ state: 'detached' });
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect.poll(() => log.getByTestId('assistant-message').last().textContent(), POLL).toContain('Ran it outside.');
      expect(fs.existsSync(marker)).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
