import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright';
import { percentile, round } from '../stats';
import { CHROMIUM_ARGS } from './chromium-args';
import { timeFirstContent } from './first-content';
import { writeLongSession } from './long-session';
import type { LongSession } from './long-session';
import { collectStreamProbe, installStreamProbe, renderedAnswerLength, resumeAndTime } from './page-probes';
import type { StreamProbe } from './page-probes';
import { benchToken, startStreamServer } from './stream-server';
import { startWebProcess } from './web-process';

/** Debian's Chromium (never a downloaded browser); GATEHOUSE_CHROMIUM overrides it. */
const CHROMIUM = process.env.GATEHOUSE_CHROMIUM ?? '/usr/bin/chromium';
const API_KEY = 'sk-ant-bench-loopback';
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
];

export interface UiBenchOptions {
  /** out/main/cli.js: the built `gatehouse` whose `web` command serves the renderer. */
  cliPath: string;
  streamMs: number;
  tokensPerSecond: number;
  messages: number;
  /** How often the stored session is opened, and the first window content timed (the median is reported). */
  repeats: { open: number; firstContent: number };
}

export type UiBenchResult = { metrics: Record<string, number>; notes: string[] } | { skipped: string };

type Playwright = typeof import('playwright');

/** Why the UI bench cannot run here, or null. */
function skipReason(cliPath: string): string | null {
  if (!fs.existsSync(CHROMIUM)) return `${CHROMIUM} is not installed (apt-get install chromium)`;
  if (!fs.existsSync(path.join(path.dirname(cliPath), '..', 'renderer', 'index.html')))
    return 'the renderer is not built (npm run build)';
  return null;
}

/** Loaded at run time from node_modules (a devDependency: never bundled into the app). */
function loadPlaywright(): Playwright | string {
  try {
    return createRequire(__filename)('playwright') as Playwright;
  } catch (err) {
    return `playwright could not be loaded (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
  }
}

/**
 * The renderer's speed in Debian Chromium through the browser shell (`gatehouse web`), with the real SDK in the
 * worker talking to a loopback Messages API: the longest main-thread task (and p95 frame interval) while an answer
 * streams at `tokensPerSecond`, and the time from clicking "Resume" on a stored session of `messages` messages to
 * its newest message on screen.
 */
export async function benchUi(options: UiBenchOptions): Promise<UiBenchResult> {
  const reason = skipReason(options.cliPath);
  if (reason) return { skipped: reason };
  const playwright = loadPlaywright();
  if (typeof playwright === 'string') return { skipped: playwright };

  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-ui-home-')));
  const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-ui-project-')));
  fs.writeFileSync(path.join(home, 'settings.yaml'), 'trust:\n  default: trust\n');
  const session = await writeLongSession(home, project, options.messages);
  const model = await startStreamServer({
    tokensPerSecond: options.tokensPerSecond,
    durationMs: options.streamMs,
    apiKey: API_KEY,
  });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GATEHOUSE_HOME: home,
    HOME: home,
    ANTHROPIC_API_KEY: API_KEY,
    ANTHROPIC_BASE_URL: model.baseURL,
  };
  let browser: Browser | null = null;
  const web = await startWebProcess({ cliPath: options.cliPath, project, env }).catch(async (err: unknown) => {
    await model.close();
    throw err;
  });
  try {
    browser = await playwright.chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const firstContent = await timeFirstContent(browser, web.url, options.repeats.firstContent);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(web.url);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await waitEnabled(page);
    const open = await timeOpen(page, session, options.repeats.open);
    const trace = process.env.GATEHOUSE_BENCH_UI_TRACE;
    // A Chromium trace of the stream (open it in chrome://tracing or DevTools' Performance panel) to see the long tasks.
    if (trace) await browser.startTracing(page, { path: trace, categories: TRACE_CATEGORIES });
    const stream = await timeStream(page, options.streamMs);
    if (trace) await browser.stopTracing();
    const streamed = Array.from({ length: model.tokensSent() }, (_, i) => benchToken(i)).join('').length;
    const rendered = await page.evaluate(renderedAnswerLength);
    // Markdown drops its marks (fences, `-`, `**`), so the page shows a little less text than was streamed.
    if (rendered < streamed * 0.8)
      throw new Error(`the page shows ${rendered} characters of the ${streamed} streamed: the stream did not render`);
    const longest = stream.longTasks.reduce((max, t) => Math.max(max, t.ms), 0);
    return {
      notes: stream.longTasks.length
        ? stream.longTasks.map((t) => `long task of ${round(t.ms)} ms at ${(t.at / 1000).toFixed(1)} s into the stream`)
        : [
            'no long task while streaming (the Long Tasks API reports tasks over 50 ms; the longest is then given as 0)',
          ],
      metrics: {
        ui_stream_longest_task_ms: round(longest),
        ui_stream_long_tasks: stream.longTasks.length,
        ui_stream_p95_frame_ms: round(percentile(stream.frames, 95)),
        ui_stream_tokens: model.tokensSent(),
        ui_open_5000_messages_ms: round(percentile(open, 50)),
        ui_open_5000_messages_first_ms: round(open[0] ?? NaN),
        ui_first_content_ms: round(
          percentile(
            firstContent.map((s) => s.visible),
            50,
          ),
        ),
        ui_first_ready_ms: round(
          percentile(
            firstContent.map((s) => s.ready),
            50,
          ),
        ),
      },
    };
  } finally {
    await browser?.close();
    await web.stop();
    await model.close();
    for (const dir of [home, project]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function waitEnabled(page: Page): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  for (let i = 0; i < 200 && !(await box.isEnabled()); i++) await page.waitForTimeout(100);
}

/** Opens the stored session `repeats` times (from an empty transcript each time); milliseconds per open. */
async function timeOpen(page: Page, session: LongSession, repeats: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await page.getByText('Ask the agent about this project').waitFor();
    await page
      .getByRole('button', { name: /^Resume session/ })
      .first()
      .waitFor();
    times.push(await page.evaluate(resumeAndTime, { marker: session.lastMarker, timeoutMs: 30_000 }));
  }
  return times;
}

/** Streams one long answer into an empty transcript while the page records its long tasks and frames. */
async function timeStream(page: Page, streamMs: number): Promise<StreamProbe> {
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await page.getByText('Ask the agent about this project').waitFor();
  await page.evaluate(installStreamProbe);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Explain the permission engine at length.');
  await box.press('Enter');
  await page.getByTestId('chat-working').waitFor({ state: 'visible' });
  await page.getByTestId('chat-working').waitFor({ state: 'detached', timeout: streamMs + 60_000 });
  await page.waitForTimeout(300);
  const problem = await page.locator('.msg-notice.error').count();
  if (problem > 0)
    throw new Error(
      `the streamed run failed on the page: ${await page.locator('.msg-notice.error').last().textContent()}`,
    );
  return page.evaluate(collectStreamProbe);
}
