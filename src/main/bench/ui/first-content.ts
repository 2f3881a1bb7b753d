import type { Browser } from 'playwright';

/**
 * The browser shell's start, the measurable twin of the desktop app's launch-to-first-content here: a new browser
 * context (cold: no cache, no compiled code kept) opens the page until the composer is on screen, `runs` times.
 * Milliseconds, one per run.
 */
export async function timeFirstContent(browser: Browser, url: string, runs: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const started = performance.now();
      await page.goto(url);
      await page.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible' });
      samples.push(performance.now() - started);
    } finally {
      await context.close();
    }
  }
  return samples;
}
