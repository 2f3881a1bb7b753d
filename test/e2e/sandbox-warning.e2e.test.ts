import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SandboxStatusViewSchema } from '../../src/shared/sandbox-contract';
import { openApiSocket } from './support/api-socket';
import { chromiumSkipReason, launchChromium } from './support/browser';
import { makeTempDir, removeTempDir, requireBuiltApp, startWeb } from './support/start-web';
import type { RunningWeb } from './support/start-web';

const skipReason = chromiumSkipReason();
/** The machine may be busy (a cold Chromium, a first sandbox check): waits are generous, and bounded. */
const POLL = { timeout: 45_000, interval: 100 };
const UNAVAILABLE = /^Commands are not sandboxed: .+\. Every command will ask for approval\.$/;
const TURNED_OFF = 'The command sandbox is turned off in your settings.';

interface Server {
  web: RunningWeb;
  project: string;
  home: string;
}

/** A server on a fresh trusted project; `bwrap` is GATEHOUSE_BWRAP for that server only. */
async function startServer(settings: string, bwrap?: string): Promise<Server> {
  const project = makeTempDir('gh-e2e-sandbox-');
  const home = makeTempDir('gh-e2e-sandbox-home-');
  fs.writeFileSync(path.join(home, 'settings.yaml'), `trust:\n  default: trust\n${settings}`);
  const saved = process.env.GATEHOUSE_BWRAP;
  if (bwrap === undefined) delete process.env.GATEHOUSE_BWRAP;
  else process.env.GATEHOUSE_BWRAP = bwrap;
  try {
    return { web: await startWeb({ project, home }), project, home };
  } finally {
    if (saved === undefined) delete process.env.GATEHOUSE_BWRAP;
    else process.env.GATEHOUSE_BWRAP = saved;
  }
}

async function stopServer(server: Server | undefined): Promise<void> {
  if (!server) return;
  await server.web.stop();
  removeTempDir(server.project);
  removeTempDir(server.home);
}

/** What the server answers on getSandboxStatus, through the socket the page uses. */
async function sandboxStatus(web: RunningWeb) {
  const socket = await openApiSocket(web.port, { token: web.token });
  try {
    const frame = await socket.call('getSandboxStatus', {});
    if (frame.kind !== 'response') throw new Error(`getSandboxStatus failed: ${JSON.stringify(frame)}`);
    return SandboxStatusViewSchema.parse(frame.result);
  } finally {
    await socket.close();
  }
}

function isFrame(value: unknown): value is { id?: unknown; channel?: unknown; kind?: unknown } & { id: number } {
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'number';
}

describe.skipIf(skipReason !== null)(
  `the sandbox warning in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 120_000 },
  () => {
    let browser: Browser;
    let server: Server | undefined;
    const pages: Page[] = [];

    beforeAll(async () => {
      requireBuiltApp();
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });
    afterEach(async () => {
      for (const page of pages.splice(0)) await page.context().close();
      await stopServer(server);
      server = undefined;
    });

    /**
     * Opens the app and waits until the page has asked main for the sandbox status and received the answer;
     * `answers()` counts the answers the page has received so far.
     */
    async function openApp(web: RunningWeb): Promise<{ page: Page; problems: string[]; answers: () => number }> {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      const page = await context.newPage();
      pages.push(page);
      const problems: string[] = [];
      const asked = new Set<number>();
      let answered = 0;
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      page.on('websocket', (ws) => {
        ws.on('framesent', (f) => {
          const frame: unknown = JSON.parse(String(f.payload));
          if (isFrame(frame) && frame.channel === 'getSandboxStatus') asked.add(frame.id);
        });
        ws.on('framereceived', (f) => {
          const frame: unknown = JSON.parse(String(f.payload));
          if (isFrame(frame) && frame.kind === 'response' && asked.has(frame.id)) answered++;
        });
      });
      await page.goto(web.url);
      await expect.poll(() => answered, POLL).toBeGreaterThan(0);
      await afterRender(page);
      return { page, problems, answers: () => answered };
    }

    /** Resolves after the page has painted twice: a state update made when an answer arrived is on screen by then. */
    async function afterRender(page: Page): Promise<void> {
      await page.evaluate(
        () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
      );
    }

    it('no working bubblewrap -> a persistent alert names the reason and says every command asks', async () => {
      server = await startServer('', '/nonexistent');
      const status = await sandboxStatus(server.web);
      expect(status).toMatchObject({ enabled: true, available: false });
      expect(status.reason).toMatch(/\S/);

      const { page, problems, answers } = await openApp(server.web);
      const alert = page.getByRole('alert').filter({ hasText: 'Commands are not sandboxed' });
      await alert.waitFor({ state: 'visible' });
      const text = (await alert.locator('p').textContent()) ?? '';
      expect(text).toMatch(UNAVAILABLE);
      expect(text).toContain(status.reason ?? 'no reason');
      // Persistent: nothing closes it, and it is still there after main announces a change.
      expect(await alert.getByRole('button').count()).toBe(0);
      const before = answers();
      const socket = await openApiSocket(server.web.port, { token: server.web.token });
      try {
        expect((await socket.call('openProject', { path: server.project })).kind).toBe('response');
      } finally {
        await socket.close();
      }
      // The page checks the sandbox again on the change; once that answer is on screen, the alert is still there.
      await expect.poll(answers, POLL).toBeGreaterThan(before);
      await afterRender(page);
      expect(await alert.isVisible()).toBe(true);
      expect(problems).toEqual([]);
    });

    it('bubblewrap works -> no banner at all', async () => {
      server = await startServer('');
      expect(await sandboxStatus(server.web)).toEqual({ enabled: true, available: true, reason: null, warnings: [] });
      const { page, problems } = await openApp(server.web);
      await page.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible' });
      // openApp waited for the page's sandbox check and for the page to paint after its answer.
      expect(await page.locator('.sandbox-banner').count()).toBe(0);
      expect(await page.getByText('Commands are not sandboxed').count()).toBe(0);
      expect(problems).toEqual([]);
    });

    it('sandbox turned off in the user settings -> the quieter "turned off" notice, not the alert', async () => {
      // Even with bubblewrap missing, the user's explicit choice wins: no alert, only the notice.
      server = await startServer('sandbox:\n  enabled: false\n', '/nonexistent');
      expect(await sandboxStatus(server.web)).toMatchObject({ enabled: false, reason: null });
      const { page, problems } = await openApp(server.web);
      const notice = page.getByRole('status').filter({ hasText: TURNED_OFF });
      await notice.waitFor({ state: 'visible' });
      expect((await notice.textContent())?.trim()).toBe(TURNED_OFF);
      expect(await page.getByText('Commands are not sandboxed').count()).toBe(0);
      expect(problems).toEqual([]);
    });
  },
);
