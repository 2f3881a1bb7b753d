import path from 'node:path';
import axe from 'axe-core';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright';
import { expect } from 'vitest';
import { REPO_ROOT } from './start-web';

/** Where the design screenshots go (test-results is git-ignored): every view, both sizes, both themes. */
export const DESIGN_SHOTS = path.join(REPO_ROOT, 'test-results/screenshots');

export const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 700 },
] as const;

/** The sidebar's navigation landmark. */
export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });

/** Shows one of the main area's views from the sidebar ("Chat", "Rules", "Hooks", "MCP servers", "Trusted folders", "Audit log", "Settings"). */
export async function openView(page: Page, name: string): Promise<void> {
  const link = sidebar(page).getByRole('list', { name: 'Views' }).getByRole('button', { name, exact: true });
  await link.click();
  await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
}

/** Resumes a session from the sidebar and waits until it is the open one. */
export async function resumeSession(page: Page, name: string | RegExp, index = 0): Promise<void> {
  const button = sidebar(page).getByRole('button', { name }).nth(index);
  const label = await button.getAttribute('aria-label');
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

/**
 * axe-core on the page (or inside `include`): the serious and critical violations, as short lines. Every rule runs on
 * the whole page, in the page itself (`axe.run`; the app cannot have cross-origin frames, its CSP is
 * `default-src 'self'`). axe's source goes into a document once, on its first check: evaluating those 600 kB again
 * for every check (as @axe-core/playwright does, twice) cost more than the check itself.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  // Only violations are reported: axe then keeps one node per passed or inapplicable rule instead of every node.
  const options: RunOptions = { resultTypes: ['violations'] };
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
