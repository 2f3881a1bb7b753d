import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppInfoSchema } from '../../src/shared/api';
import { WorkerInfoSchema } from '../../src/shared/worker-protocol';
import { openApiSocket } from './support/api-socket';
import { chromiumSkipReason, launchChromium } from './support/browser';
import { isProcessAlive, makeTempDir, removeTempDir, REPO_ROOT, requireBuiltApp, startWeb } from './support/start-web';
import type { RunningWeb } from './support/start-web';

const skipReason = chromiumSkipReason();
const SCREENSHOT = path.join(REPO_ROOT, 'test-results/e2e/app.png');
/** The machine may be busy: UI waits are generous, and bounded. */
const POLL = { timeout: 20_000, interval: 100 };
const VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version;

describe.skipIf(skipReason !== null)(
  `the browser shell in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 90_000 },
  () => {
    let web: RunningWeb;
    let browser: Browser;
    let project: string;
    const extraDirs: string[] = [];

    beforeAll(async () => {
      requireBuiltApp(); // a missing build fails here instead of skipping
      project = makeTempDir('gh-e2e-project-');
      web = await startWeb({ project });
      // These tests are about the shell, not trust: no trust prompt over the page (trust.e2e.test.ts covers it).
      fs.writeFileSync(path.join(web.home, 'settings.yaml'), 'trust:\n  default: trust\n');
      browser = await launchChromium();
    });

    /** A fresh browser profile (no cookies) whose every wait is bounded, so a poll retries instead of hanging. */
    async function openContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
      const context = await browser.newContext(options);
      context.setDefaultTimeout(5_000);
      return context;
    }

    afterAll(async () => {
      await browser?.close();
      await web?.stop();
      for (const dir of [project, ...extraDirs]) if (dir) removeTempDir(dir);
    });

    it('shows the live worker: the pid and version the worker process itself reported', async () => {
      const context = await openContext({ viewport: { width: 1100, height: 640 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
      });

      // CSP violations are reported as events even when the offending call is caught: record them all.
      await page.addInitScript(() => {
        const seen: string[] = [];
        Object.defineProperty(window, '__cspViolations', { value: seen });
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const response = await page.goto(web.url);
      expect(response?.status()).toBe(200);
      // The worker's own report lives in Help › About.
      await page.getByRole('button', { name: 'Help › About Gatehouse' }).click();
      const about = page.getByRole('dialog', { name: 'About Gatehouse' });
      const pidCell = about.getByTestId('live-worker-pid');
      await expect.poll(() => pidCell.textContent(), POLL).toMatch(/^\d+$/);
      const shownPid = Number(await pidCell.textContent());

      // The same answer, asked independently over the API socket: the pid of a live process that is not the server.
      const socket = await openApiSocket(web.port, { token: web.token });
      const ping = await socket.call('pingWorker', {});
      await socket.close();
      if (ping.kind !== 'response') throw new Error(JSON.stringify(ping));
      const worker = WorkerInfoSchema.parse(ping.result);
      expect(shownPid).toBe(worker.pid);
      expect(shownPid).not.toBe(web.proc.pid);
      expect(isProcessAlive(shownPid)).toBe(true);
      expect(fs.existsSync(`/proc/${shownPid}`)).toBe(true);

      await expect.poll(() => about.getByTestId('live-worker-version').textContent(), POLL).toBe(VERSION);
      await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-about.png') });
      await page.keyboard.press('Escape');
      await about.waitFor({ state: 'detached' });
      await expect
        .poll(() => page.getByTestId('worker-status').textContent(), POLL)
        .toContain(`Worker ready · pid ${worker.pid}`);
      await expect.poll(() => page.getByTestId('connection-status').textContent(), POLL).toBe('Connected');
      expect(await page.getByTestId('current-project').textContent()).toContain(project);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Gatehouse');
      // The token left the address bar, and no cookie carries it (web-token.e2e.test.ts goes further).
      expect(page.url()).not.toContain('token=');
      expect(await context.cookies()).toEqual([]);

      fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-dark.png'), fullPage: true });
      expect(problems).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual(
        [],
      );
      await context.close();
    });

    it('opens another folder from the "Folder path" box and lists it in recent projects', async () => {
      const other = makeTempDir('gh-e2e-other-');
      extraDirs.push(other);
      const context = await openContext();
      const page = await context.newPage();
      await page.goto(web.url);
      await page.getByRole('button', { name: 'Switch project' }).click();
      await page.getByLabel('Folder path').fill(other);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await expect.poll(() => page.getByTestId('current-project').textContent(), POLL).toContain(other);
      await page.getByRole('button', { name: 'Switch project' }).click();
      await expect
        .poll(() => page.getByRole('button', { name: `Open ${path.basename(other)} ${other}` }).count(), POLL)
        .toBe(1);

      await page.getByLabel('Folder path').fill(path.join(other, 'does-not-exist'));
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('alert').first().textContent(), POLL).toContain('not found');

      // Back to the first project, with the keyboard only.
      await page.getByRole('button', { name: `Open ${path.basename(project)} ${project}` }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('current-project').textContent(), POLL).toContain(project);
      await context.close();
    });

    it('follows the worker through a crash, and says plainly when it stops restarting it', async () => {
      const own = await startWeb();
      const context = await openContext({ viewport: { width: 1100, height: 480 } });
      try {
        const page = await context.newPage();
        await page.goto(own.url);
        const status = page.getByTestId('worker-status');
        await page.getByRole('button', { name: 'Help › About Gatehouse' }).click();
        const pidCell = page.getByRole('dialog', { name: 'About Gatehouse' }).getByTestId('live-worker-pid');
        await expect.poll(() => pidCell.textContent(), POLL).toMatch(/^\d+$/);
        const firstPid = Number(await pidCell.textContent());

        process.kill(firstPid, 'SIGKILL');
        await expect.poll(() => status.textContent(), POLL).toMatch(/^Worker ready · pid \d+ · v.* · 1 restart$/);
        const secondPid = Number(/pid (\d+)/.exec((await status.textContent()) ?? '')?.[1]);
        expect(secondPid).not.toBe(firstPid);
        await expect.poll(() => pidCell.textContent(), POLL).toBe(String(secondPid));

        // Crash it until the supervisor gives up: the page must say so in words, not spin.
        const socket = await openApiSocket(own.port, { token: own.token });
        await vi.waitFor(
          async () => {
            const frame = await socket.call('getAppInfo', {});
            if (frame.kind !== 'response') throw new Error(JSON.stringify(frame));
            const worker = AppInfoSchema.parse(frame.result).worker;
            if (worker.state === 'failed') return;
            if (worker.state === 'ready' && worker.info) killIfAlive(worker.info.pid); // the last kill may not be seen yet
            throw new Error(`the worker is ${worker.state}, not failed yet`);
          },
          { timeout: 45_000, interval: 150 },
        );
        await socket.close();
        await expect.poll(() => status.getAttribute('data-state'), POLL).toBe('failed');
        expect(await status.textContent()).toMatch(/^Worker unavailable: \S/);
        await page.getByRole('button', { name: 'Ping worker' }).click();
        await expect
          .poll(() => page.getByRole('dialog').getByRole('alert').first().textContent(), POLL)
          .toMatch(/^Worker unavailable: .*WORKER_UNAVAILABLE/);
        await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-worker-failed.png') });
      } finally {
        await context.close();
        await own.stop();
      }
    });

    it('shows a browser without the token no data: the page loads, the API does not', async () => {
      const context = await openContext();
      const page = await context.newPage();
      const response = await page.goto(`${web.origin}/`);
      expect(response?.status()).toBe(200);
      await expect
        .poll(() => page.getByTestId('connection-status').textContent(), POLL)
        .toMatch(/^Not connected: this page has no access token/);
      expect(await page.getByTestId('worker-status').count()).toBe(0); // no worker state reached the page
      await context.close();
    });
  },
);

/** SIGKILL that tolerates a process that is already gone (the supervisor may not have noticed the last kill yet). */
function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
