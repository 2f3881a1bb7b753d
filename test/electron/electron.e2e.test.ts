import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron } from 'playwright';
import type { ElectronApplication, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElectronRuntime, playwrightElectronLoader } from './electron-runtime';

// The desktop app end to end: runs when an Electron runtime is present, else is reported as skipped with why.
const runtime = findElectronRuntime();
const root = path.resolve(__dirname, '../..');
if (runtime.reason) console.log(`[electron e2e] skipped: ${runtime.reason}`);
const title = (what: string) => (runtime.reason ? `${what} (skipped: ${runtime.reason})` : what);

describe('desktop app (Electron)', () => {
  let app: ElectronApplication | null = null;
  let page: Page;
  let home: string;

  beforeAll(async () => {
    if (!runtime.executable) return;
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-electron-')));
    const loader = playwrightElectronLoader();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (typeof v === 'string' && !k.startsWith('ELECTRON_RENDERER')) env[k] = v;
    app = await _electron.launch({
      executablePath: runtime.executable,
      args: [...(loader ? ['-r', loader] : []), root],
      cwd: root,
      env: { ...env, GATEHOUSE_HOME: home },
      timeout: 60_000,
    });
    page = await app.firstWindow({ timeout: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it.skipIf(!runtime.executable)(title('shows the pid of the live worker (a utility process)'), async () => {
    await page.waitForFunction(() => 'gatehouse' in window, null, { timeout: 30_000 });
    const info = await page.evaluate(() =>
      (
        window as unknown as { gatehouse: { pingWorker(r: object): Promise<{ pid: number; runtime: string }> } }
      ).gatehouse.pingWorker({}),
    );
    expect(info.runtime).toBe('electron');
    expect(info.pid).toBeGreaterThan(0);
    await page.waitForFunction((pid) => document.body.innerText.includes(String(pid)), info.pid, { timeout: 30_000 });
    expect(page.url()).toBe('app://gatehouse/index.html');
  });

  it.skipIf(!runtime.executable)(
    title('gives the page no Node, no raw IPC, no new windows and no way away'),
    async () => {
      // Links the app hands to the OS browser are recorded here instead of opening the developer's browser.
      await app!.evaluate(({ shell }) => {
        const opened: string[] = [];
        (globalThis as unknown as { __gatehouseOpened: string[] }).__gatehouseOpened = opened;
        shell.openExternal = async (url: string) => void opened.push(url);
      });
      const handedToBrowser = () =>
        app!.evaluate(() => (globalThis as unknown as { __gatehouseOpened: string[] }).__gatehouseOpened.slice());
      const probe = await page.evaluate(() => ({
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
        keys: Object.keys((window as unknown as { gatehouse: object }).gatehouse).sort(),
        opened: window.open('https://example.com/') === null,
      }));
      expect(probe.require).toBe('undefined');
      expect(probe.process).toBe('undefined');
      expect(probe.keys).toContain('onEvent');
      expect(probe.keys).not.toContain('invoke');
      expect(probe.opened).toBe(true);
      await page.evaluate(() => {
        window.location.href = 'https://example.com/next';
      });
      // Both went to the (stubbed) OS browser, validated; the page stayed where it was.
      await expect
        .poll(handedToBrowser, { timeout: 10_000 })
        .toEqual(['https://example.com/', 'https://example.com/next']);
      expect(page.url()).toBe('app://gatehouse/index.html');
      // The worker answering the page is the utility process Electron lists under our service name.
      const info = await page.evaluate(() =>
        (window as unknown as { gatehouse: { pingWorker(r: object): Promise<{ pid: number }> } }).gatehouse.pingWorker(
          {},
        ),
      );
      const metrics = await app!.evaluate(({ app: electronApp }) =>
        electronApp.getAppMetrics().map((m) => ({ pid: m.pid, type: m.type, name: m.name ?? m.serviceName ?? '' })),
      );
      expect(metrics).toContainEqual({
        pid: info.pid,
        type: 'Utility',
        name: expect.stringContaining('Gatehouse worker'),
      });
    },
  );
});
