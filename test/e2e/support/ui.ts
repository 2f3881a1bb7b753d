import path from 'node:path';
import axe from 'axe-core';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright';
import { expect } from 'vitest';
import { REPO_ROOT } from './start-web';

/** Where the design screenshots go (test-results is git-ignored): every view, both sizes, both themes. */
export const DESIGN_SHOTS = path.join(REPO_ROOT, 'test-results/screenshots');

/** The window sizes the layout is checked at: a laptop, and the narrowest supported window (720 px wide). */
export const SIZES = [
  { width: 1280, height: 800 },
  { width: 720, height: 700 },
] as const;

/** The sidebar's navigation landmark. */
export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });

/** Whether the sidebar shows icons only (collapsed), as sight has it: narrower than any of its words. */
export async function sidebarCollapsed(page: Page): Promise<boolean> {
  const box = await sidebar(page).boundingBox();
  if (!box) throw new Error('the sidebar is not on screen');
  return box.width < 100;
}

/** Shows one of the main area's views from the sidebar ("Chat", "Rules", "Hooks", "MCP servers", "Trusted folders", "Audit log", "Settings"). */
export async function openView(page: Page, name: string): Promise<void> {
  const link = sidebar(page).getByRole('list', { name: 'Views' }).getByRole('button', { name, exact: true });
  await link.click();
  await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
}

/** Resumes a session from the sidebar and waits until it is the open one. */
export async function resumeSession(page: Page, name: string | RegExp, index = 0): Promise<void> {
  const button = sidebar(page).getByRole('button', { name }).nth(index);
  // Named by its text (a session's open button has no aria-label: its visible title is its name).
  const label = (await button.getAttribute('aria-label')) ?? (await button.textContent())?.replace(/\s+/g, ' ').trim();
  await button.click();
  await expect
    .poll(() =>
      sidebar(page)
        .getByRole('button', { name: label ?? name, exact: true })
        .getAttribute('aria-current'),
    )
    .toBe('true');
}

/** Sets the page's theme the way the Settings page does (data-theme on <html>), without saving it. */
export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
}

/** axe's experimental rules that check a WCAG criterion (off by default); not the best-practice or review ones. */
const EXPERIMENTAL_WCAG_RULES: NonNullable<RunOptions['rules']> = Object.fromEntries(
  axe
    .getRules(['experimental'])
    .filter((r) => r.tags.some((t) => /^wcag\d/.test(t)))
    .map((r) => [r.ruleId, { enabled: true }]),
);

/**
 * axe-core on the page (or inside `include`): the serious and critical violations, as short lines. Every rule runs on
 * the whole page, in the page itself (`axe.run`; the app cannot have cross-origin frames, its CSP is
 * `default-src 'self'`). axe's source goes into a document once, on its first check: evaluating those 600 kB again
 * for every check (as @axe-core/playwright does, twice) cost more than the check itself.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  // Only violations are reported: axe then keeps one node per passed or inapplicable rule instead of every node.
  // axe's experimental WCAG rules run too (label-content-name-mismatch: a button's visible words must be in its name).
  const options: RunOptions = { resultTypes: ['violations'], rules: EXPERIMENTAL_WCAG_RULES };
  const violations = await page.evaluate(
    async ({ include, options }) => {
      const inPage = (window as unknown as { axe: typeof axe }).axe;
      const result: AxeResults = await inPage.run(include ? { include: [include] } : document, options);
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
      }));
    },
    { include, options },
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

/** Whether the document itself can scroll (it must not: the transcript and pages scroll inside). */
export function documentScrolls(page: Page): Promise<{ vertical: boolean; horizontal: boolean }> {
  return page.evaluate(() => {
    const el = document.scrollingElement ?? document.documentElement;
    return { vertical: el.scrollHeight > el.clientHeight + 1, horizontal: el.scrollWidth > el.clientWidth + 1 };
  });
}

/** Whether the element lies wholly inside the viewport. */
export async function fullyInViewport(page: Page, selector: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await selector.boundingBox();
  const view = page.viewportSize();
  if (!box || !view) return false;
  return box.y >= 0 && box.x >= 0 && box.y + box.height <= view.height + 0.5 && box.x + box.width <= view.width + 0.5;
}

/**
 * Every element of the page that scrolls sideways, or would (content wider than its box): the document, the pages'
 * scroll containers, table wrappers. Code and terminal output may scroll sideways inside their own box (`pre`,
 * `.xterm`, text fields); nothing else may. Lines like `div.audit-table-wrap: 812 > 640`.
 */
export function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const own = (el: Element): boolean => el.closest('pre, .xterm, textarea, input, select') !== null;
    for (const el of [document.scrollingElement ?? document.documentElement, ...document.querySelectorAll('body *')]) {
      if (own(el) || el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      const scrolls = el === document.scrollingElement || /auto|scroll/.test(style.overflowX);
      if (scrolls && el.scrollWidth > el.clientWidth + 1)
        found.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    return found;
  });
}

/**
 * The badges (decisions, states, rule behaviours, tags) with a word broken across lines: each word (a run of letters
 * and digits) must lie on one line. A line may end after a space, a hyphen or a slash (a long path wraps there).
 * Lines like `audit-decision "allow"`.
 */
export function brokenBadgeWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const badge of document.querySelectorAll('.badge, .rules-badge, .audit-decision, .tag')) {
      if (badge.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(badge, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const word of text.matchAll(/[\p{L}\p{N}]+/gu)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) found.push(`${badge.className} "${word[0]}"`);
        }
      }
    }
    return found;
  });
}

/**
 * In the dark theme, the selects (and the options their open list is drawn from) whose background is light or whose
 * text is dark: a select must not stay a white box on a dark page. Lines like `select#mode option "allow"`.
 */
export function lightSelectsInDark(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const luminance = (css: string): number => {
      const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
      return a === 0 ? -1 : (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    const found: string[] = [];
    for (const el of document.querySelectorAll('select, select option')) {
      const style = getComputedStyle(el);
      const bg = luminance(style.backgroundColor);
      if (bg > 0.5 || luminance(style.color) < 0.5)
        found.push(
          `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}": ${style.backgroundColor} / ${style.color}`,
        );
    }
    return found;
  });
}
