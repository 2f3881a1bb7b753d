import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright';
import { createServer } from 'vite';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../../../electron.vite.config';
import { allowInlineScripts } from '../../../electron.vite.config';
import { chromiumSkipReason, launchChromium } from '../../e2e/support/browser';

// `npm run dev` serves the renderer with @vitejs/plugin-react's inline Fast Refresh preamble; the page's CSP (the
// meta tag in src/renderer/index.html) must admit exactly that script there, and the built page must keep its CSP
// unchanged. The served page runs in Debian Chromium to see the CSP decide.

const root = path.resolve(__dirname, '../../..');
const sourceHtml = fs.readFileSync(path.join(root, 'src/renderer/index.html'), 'utf8');
const renderer = (config as unknown as { renderer: { root: string; plugins: unknown[] } }).renderer;
const cspOf = (html: string): string =>
  /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1] ?? '';
const scriptSrc = (csp: string): string[] =>
  (csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '').trim().split(/\s+/).slice(1);
const inlineScripts = (html: string): string[] =>
  [...html.matchAll(/<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]!);
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Each kind of dev server caches in a fixed folder under the repo's node_modules (git-ignored, where Vite keeps its
 * own cache). Vite's dependency optimiser may write its temporary folder after the server closed, even after the
 * folder was removed, so a fresh temp folder per run was left behind in /tmp; in a fixed folder the optimised
 * dependencies are reused by the next run, and a leftover is Vite's to clear (it removes temporary folders older than
 * a day when it starts). One folder per kind: their plugins differ, which changes Vite's cache key.
 */
async function devServer(kind: 'dev' | 'bare', plugins: unknown[]): Promise<ViteDevServer> {
  return createServer({
    configFile: false,
    root: renderer.root,
    plugins: plugins as never,
    cacheDir: path.join(root, 'node_modules/.cache/gatehouse-test-vite', kind),
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0, strictPort: false },
  });
}

describe('the renderer page in `npm run dev` (serve mode)', () => {
  let server: ViteDevServer;
  let served: string;

  beforeAll(async () => {
    server = await devServer('dev', renderer.plugins);
    served = await server.transformIndexHtml('/index.html', sourceHtml);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("has the React preamble inline, and its CSP admits exactly that script by hash (no 'unsafe-inline')", () => {
    const scripts = inlineScripts(served);
    expect(scripts.some((s) => s.includes('/@react-refresh') && s.includes('injectIntoGlobalHook'))).toBe(true);
    const allowed = scriptSrc(cspOf(served));
    for (const s of scripts) expect(allowed).toContain(sha256(s));
    expect(allowed).not.toContain("'unsafe-inline'");
    expect(allowed[0]).toBe("'self'");
  });

  it('without the dev plugin the preamble would be blocked (what left `npm run dev` blank)', async () => {
    const bare = await devServer(
      'bare',
      renderer.plugins.flat().filter((p) => (p as { name?: string }).name !== 'gatehouse:dev-csp-inline-scripts'),
    );
    try {
      const html = await bare.transformIndexHtml('/index.html', sourceHtml);
      const preamble = inlineScripts(html).find((s) => s.includes('injectIntoGlobalHook'))!;
      expect(preamble).toBeDefined();
      expect(scriptSrc(cspOf(html))).not.toContain(sha256(preamble));
    } finally {
      await bare.close();
    }
  });

  describe.skipIf(chromiumSkipReason() !== null)(
    `in Chromium${chromiumSkipReason() ? ` (skipped: ${chromiumSkipReason()})` : ''}`,
    () => {
      let browser: Browser;
      beforeAll(async () => {
        browser = await launchChromium();
      }, 60_000);
      afterAll(async () => {
        await browser?.close();
      });

      it('the preamble runs and no script is refused by the CSP', async () => {
        await server.listen();
        const url = server.resolvedUrls!.local[0]!;
        const page = await browser.newPage();
        try {
          // Only the page and Vite's own modules: the app itself (src/main.tsx) is not what is checked here.
          await page.route('**/src/main.tsx', (route) =>
            route.fulfill({ contentType: 'text/javascript', body: 'window.__appLoaded = true;' }),
          );
          const violations: string[] = [];
          page.on('console', (m) => {
            if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
          });
          await page.addInitScript(() => {
            document.addEventListener('securitypolicyviolation', (e) =>
              ((window as unknown as { __csp: string[] }).__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`),
            );
          });
          await page.goto(url);
          await page.waitForFunction(
            () => (window as unknown as { __appLoaded?: boolean }).__appLoaded === true,
            null,
            { timeout: 30_000 },
          );
          expect(await page.evaluate(() => typeof (window as unknown as { $RefreshReg$?: unknown }).$RefreshReg$)).toBe(
            'function',
          );
          const fromPage = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
          expect([...fromPage, ...violations].filter((v) => /script/i.test(v))).toEqual([]);
        } finally {
          await page.close();
        }
      }, 90_000);
    },
  );
});

describe('the built page (npm run build)', () => {
  it('keeps the CSP of src/renderer/index.html exactly, with no hash or inline script added', () => {
    const built = path.join(root, 'out/renderer/index.html');
    expect(fs.existsSync(built), 'run `npm run build` first').toBe(true);
    const html = fs.readFileSync(built, 'utf8');
    expect(cspOf(html)).toBe(cspOf(sourceHtml));
    expect(cspOf(html)).not.toContain('sha256-');
    expect(inlineScripts(html)).toEqual([]);
  });

  it('allowInlineScripts admits each inline script by hash and refuses a page it cannot secure', () => {
    const page = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; object-src 'none'" /><script type="module">run()</script><script src="/x.js"></script>`;
    expect(cspOf(allowInlineScripts(page))).toBe(
      `default-src 'self'; script-src 'self' ${sha256('run()')}; object-src 'none'`,
    );
    expect(allowInlineScripts('<p>no scripts</p>')).toBe('<p>no scripts</p>');
    expect(() => allowInlineScripts('<script>x()</script>')).toThrow(/no Content-Security-Policy meta tag/);
    expect(() =>
      allowInlineScripts(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'self'" /><script>x()</script>`,
      ),
    ).toThrow(/no script-src/);
  });
});
