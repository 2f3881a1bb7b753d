import type { Browser } from 'playwright';

/** One open of the page in a new browser context: when its composer showed, and when it was enabled. */
export interface FirstContentSample {
  /** Milliseconds until the message box is on screen (the page's shell draws it before any script runs). */
  visible: number;
  /** Milliseconds until it takes a message: the app is loaded and connected to `gatehouse web`. */
  ready: number;
}

/**
 * The browser shell's start, the measurable twin of the desktop app's launch-to-first-content here: a new browser
 * context (cold: no cache, no compiled code kept) opens the page until the composer is on screen, then until it is
 * enabled, `runs` times.
 */
export async function timeFirstContent(browser: Browser, url: string, runs: number): Promise<FirstContentSample[]> {
  const samples: FirstContentSample[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const started = performance.now();
      await page.goto(url);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.waitFor({ state: 'visible' });
      const visible = performance.now() - started;
      await page.waitForFunction(
        () => {
          const boxes = document.querySelectorAll('textarea[aria-label="Message"]');
          return boxes.length === 1 && !(boxes[0] as HTMLTextAreaElement).disabled;
        },
        null,
        { polling: 'raf' },
      );
      samples.push({ visible, ready: performance.now() - started });
    } finally {
      await context.close();
    }
  }
  return samples;
}
