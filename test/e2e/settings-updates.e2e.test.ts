import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium } from './support/browser';
import { makeTempDir, removeTempDir, REPO_ROOT, requireBuiltApp, startWeb } from './support/start-web';
import type { RunningWeb } from './support/start-web';

// Settings > Updates in Chromium through the browser shell, which does not update itself: the line shows the
// running version and says so, and "Check now" is off. (The desktop updater's states: test/unit/electron/updates.)

const skipReason = chromiumSkipReason();
const POLL = { timeout: 20_000, interval: 100 };
const VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version;

describe.skipIf(skipReason !== null)(
  `Settings > Updates in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 90_000 },
  () => {
    let web: RunningWeb;
    let browser: Browser;
    let project: string;

    beforeAll(async () => {
      requireBuiltApp();
      project = makeTempDir('gh-e2e-updates-');
      web = await startWeb({ project });
      fs.writeFileSync(path.join(web.home, 'settings.yaml'), 'trust:\n  default: trust\n');
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await web?.stop();
      if (project) removeTempDir(project);
    });

    it('shows the version and that this shell does not update itself; Check now is off', async () => {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      context.setDefaultTimeout(5_000);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(err.message));
      await page.goto(web.url);
      await expect.poll(() => page.getByRole('navigation', { name: 'Sidebar' }).count(), POLL).toBe(1);
      await page
        .getByRole('navigation', { name: 'Sidebar' })
        .getByRole('button', { name: 'Settings', exact: true })
        .click();
      const updates = page.getByTestId('settings-updates');
      await expect.poll(() => page.getByRole('heading', { name: 'Updates' }).count(), POLL).toBe(1);
      await expect
        .poll(() => updates.getByTestId('settings-updates-status').textContent(), POLL)
        .toBe(
          `Gatehouse ${VERSION}. This shell does not update itself: it runs from the Gatehouse package that installed it (update that package).`,
        );
      expect(await updates.getByRole('button', { name: 'Check now' }).isDisabled()).toBe(true);
      expect(await updates.getByRole('button', { name: 'Restart to update' }).count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    });
  },
);
