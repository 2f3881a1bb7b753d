import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { percentile, round } from '../stats';
import { findElectronRuntime, playwrightElectronLoader } from './electron-runtime';

export type DesktopBenchResult = { metrics: Record<string, number> } | { skipped: string };

type Playwright = typeof import('playwright');

/**
 * The desktop app's start: from launching Electron on the built app (`appDir`) to the window's page showing
 * content (the React root rendered), each launch cold with a fresh config folder; the median and the slowest of
 * `runs`. Playwright drives the launch (its loader is part of every sample alike). Needs an Electron runtime and, on
 * Linux, a display (`xvfb-run`); otherwise it is skipped with the reason.
 */
export async function benchDesktopStart(options: { appDir: string; runs?: number }): Promise<DesktopBenchResult> {
  const runtime = findElectronRuntime(process.env, __filename);
  if (runtime.reason !== null) return { skipped: runtime.reason };
  if (!fs.existsSync(path.join(options.appDir, 'out/main/index.js')))
    return { skipped: 'the app is not built (npm run build)' };
  let playwright: Playwright;
  try {
    playwright = createRequire(__filename)('playwright') as Playwright;
  } catch (err) {
    return {
      skipped: `playwright could not be loaded (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
    };
  }
  const loader = playwrightElectronLoader(__filename);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (typeof v === 'string' && !k.startsWith('ELECTRON_RENDERER')) env[k] = v;
  const samples: number[] = [];
  for (let i = 0; i < (options.runs ?? 5); i++) {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-desktop-'));
    const started = performance.now();
    const app = await playwright._electron.launch({
      executablePath: runtime.executable,
      args: [...(loader ? ['-r', loader] : []), options.appDir],
      cwd: options.appDir,
      env: { ...env, GATEHOUSE_HOME: home },
      timeout: 60_000,
    });
    try {
      const page = await app.firstWindow({ timeout: 60_000 });
      // The app itself, mounted (not the static shell index.html draws before any script runs).
      await page.waitForFunction(() => document.querySelector('#root > .app-shell') !== null, null, {
        timeout: 60_000,
      });
      samples.push(performance.now() - started);
    } finally {
      await app.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  }
  return {
    metrics: {
      desktop_first_content_ms: round(percentile(samples, 50)),
      desktop_first_content_max_ms: round(Math.max(...samples)),
    },
  };
}
