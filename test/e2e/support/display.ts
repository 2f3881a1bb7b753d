import path from 'node:path';
import type { Locator, Page } from 'playwright';
import { SCREENSHOTS } from './chat-app';

/** Bidirectional controls: none may reach the screen as themselves. */
export const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** Zero-width and other invisible characters (a ZWJ inside an emoji aside, which these tests do not use). */
export const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/u;

/** Where a piece of text is drawn inside `element`: the box of the first occurrence of `needle` in its text nodes. */
export async function textBox(
  element: Locator,
  needle: string,
): Promise<{ x: number; y: number; right: number; bottom: number } | null> {
  return element.evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      const rects = Array.from(range.getClientRects());
      const first = rects[0];
      const last = rects[rects.length - 1];
      if (!first || !last) return null;
      return { x: first.left, y: first.top, right: last.right, bottom: last.bottom };
    }
    return null;
  }, needle);
}

type Box = { x: number; y: number; right: number; bottom: number } | null;

/** Whether `a` is drawn before `b` in reading order (left to right on a line, lines top to bottom). */
export function readsBefore(a: Box, b: Box): boolean {
  if (!a || !b) return false;
  if (b.y >= a.bottom - 1) return true;
  return Math.abs(a.y - b.y) < 2 && a.x < b.x;
}

/** Screenshots of the page in the light and the dark theme (test-results/e2e/NAME.png and NAME-dark.png). */
export async function screenshotBothThemes(page: Page, name: string, target?: Locator): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const file = path.join(SCREENSHOTS, `${name}${scheme === 'dark' ? '-dark' : ''}.png`);
    if (target) await target.screenshot({ path: file });
    else await page.screenshot({ path: file });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The text of the element that has the focus. */
export function focusedText(page: Page): Promise<string> {
  return page.evaluate(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement.innerText.trim() : '',
  );
}
