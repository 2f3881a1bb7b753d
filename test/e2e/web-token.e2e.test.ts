import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { chromiumSkipReason, launchChromium } from './support/browser';
import { makeTempDir, removeTempDir, requireBuiltApp, startWeb } from './support/start-web';
import type { RunningWeb } from './support/start-web';

// The browser shell's token (issue 12 item 5, issue 13 item 7): no cookie, no credential in any request, gone from
// the URL, the history and the performance entries; the page cannot reach other local ports; Trusted Types.

const skipReason = chromiumSkipReason();
const POLL = { timeout: 20_000, interval: 100 };

interface Recorded {
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** Another local server, like a dev server the person opens in the same browser: records what it receives. */
async function otherLocalServer(): Promise<{
  port: number;
  requests: Recorded[];
  sockets: number;
  close(): Promise<void>;
}> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>dev server</title><p>another app</p>');
  });
  const wss = new WebSocketServer({ server });
  const state = { sockets: 0 };
  wss.on('connection', (ws, req) => {
    state.sockets++;
    requests.push({ url: `ws ${req.url ?? ''}`, headers: req.headers });
    ws.close();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    get sockets() {
      return state.sockets;
    },
    close: () =>
      new Promise<void>((resolve) => {
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(skipReason !== null)(
  `the browser shell's token in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 90_000 },
  () => {
    let web: RunningWeb;
    let browser: Browser;
    let project: string;
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      requireBuiltApp();
      project = makeTempDir('gh-e2e-token-');
      web = await startWeb({ project });
      fs.writeFileSync(path.join(web.home, 'settings.yaml'), 'trust:\n  default: trust\n');
      browser = await launchChromium();
    });

    afterAll(async () => {
      for (const c of contexts) await c.close();
      await browser?.close();
      await web?.stop();
      if (project) removeTempDir(project);
    });

    async function newPage(): Promise<{ context: BrowserContext; page: Page; sent: Recorded[] }> {
      const context = await browser.newContext();
      contexts.push(context);
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const sent: Recorded[] = [];
      // Every request the browser makes, with the headers it really sent (cookies included).
      page.on('request', (req) => void req.allHeaders().then((headers) => sent.push({ url: req.url(), headers })));
      return { context, page, sent };
    }

    const connection = (page: Page) => page.getByTestId('connection-status').textContent();

    it('moves the token from the URL fragment into session storage: no URL, history entry, performance entry or request holds it', async () => {
      const { context, page, sent } = await newPage();
      await page.goto(web.url);
      await expect.poll(() => connection(page), POLL).toBe('Connected');
      expect(page.url()).toBe(`${web.origin}/`);
      const seen = await page.evaluate(() => ({
        href: location.href,
        entries: performance.getEntries().map((e) => e.name),
        navigation: performance.getEntriesByType('navigation').map((e) => e.name),
        cookie: document.cookie,
        stored: sessionStorage.getItem('gatehouse.token'),
        local: Object.keys(localStorage).map((k) => localStorage.getItem(k)),
      }));
      expect(seen.navigation).toEqual([`${web.origin}/`]);
      expect(seen.entries.filter((n) => n.includes(web.token))).toEqual([]);
      expect(seen.cookie).toBe('');
      expect(seen.stored).toBe(web.token);
      expect(seen.local.filter((v) => v?.includes(web.token))).toEqual([]);
      expect(await context.cookies()).toEqual([]);
      // No request carried the token (the fragment is never sent), and no request carried a cookie.
      expect(sent.length).toBeGreaterThan(2);
      for (const r of sent) {
        expect(r.url, r.url).not.toContain(web.token);
        expect(JSON.stringify(r.headers), r.url).not.toContain(web.token);
        expect(r.headers.cookie, r.url).toBeUndefined();
      }
      // The tab's history has no entry with the token: back leads to the blank page it started on.
      await page.goBack();
      expect(page.url()).toBe('about:blank');
      await page.goForward();
      expect(page.url()).toBe(`${web.origin}/`);
      // A reload finds the token in this tab's session storage.
      await page.reload();
      await expect.poll(() => connection(page), POLL).toBe('Connected');
    });

    it('another server on 127.0.0.1 receives no credential, and the page cannot reach it', async () => {
      const other = await otherLocalServer();
      try {
        const { context, page } = await newPage();
        await page.goto(web.url);
        await expect.poll(() => connection(page), POLL).toBe('Connected');

        // Page script (an injected one, say) tries other local ports: the CSP blocks both, before any request.
        const blocked = await page.evaluate(async (port) => {
          const violations: string[] = [];
          document.addEventListener('securitypolicyviolation', (e) =>
            violations.push(`${e.effectiveDirective} ${e.blockedURI}`),
          );
          const fetched = await fetch(`http://127.0.0.1:${port}/steal`).then(
            () => 'fetched',
            (e: unknown) => (e instanceof Error ? e.name : 'error'),
          );
          const socket = await new Promise<string>((resolve) => {
            try {
              const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
              ws.onopen = () => resolve('opened');
              ws.onerror = () => resolve('error');
            } catch (e) {
              resolve(e instanceof Error ? e.name : 'threw');
            }
          });
          return { fetched, socket, violations };
        }, other.port);
        expect(blocked.fetched).toBe('TypeError');
        expect(blocked.socket).not.toBe('opened');
        // (each is reported once per policy that blocks it: the header's and the page's own)
        expect([...new Set(blocked.violations)]).toEqual([
          `connect-src http://127.0.0.1:${other.port}/steal`,
          `connect-src ws://127.0.0.1:${other.port}/`,
        ]);
        expect(other.requests).toEqual([]);
        expect(other.sockets).toBe(0);

        // The person opens the other app in the same browser: it gets no cookie, no token, no referrer.
        for (const host of [`127.0.0.1:${other.port}`, `localhost:${other.port}`]) {
          const tab = await context.newPage();
          await tab.goto(`http://${host}/`);
          expect(await tab.evaluate(() => sessionStorage.getItem('gatehouse.token'))).toBeNull();
          await tab.close();
        }
        await page.evaluate((port) => {
          window.open(`http://127.0.0.1:${port}/from-the-app`, '_blank', 'noopener');
        }, other.port);
        const pages = () => other.requests.map((r) => r.url).filter((u) => u !== '/favicon.ico');
        await expect.poll(pages, POLL).toEqual(['/', '/', '/from-the-app']);
        for (const r of other.requests) {
          expect(r.headers.cookie, r.url).toBeUndefined();
          // (its own pages may refer to themselves, e.g. for its favicon; never to Gatehouse)
          expect(r.headers.referer ?? '', r.url).not.toContain(`:${web.port}`);
          expect(JSON.stringify(r), r.url).not.toContain(web.token);
        }
      } finally {
        await other.close();
      }
    });

    it('Trusted Types: the page refuses HTML strings in script sinks and creating a policy', async () => {
      const { page } = await newPage();
      await page.goto(web.url);
      await expect.poll(() => connection(page), POLL).toBe('Connected');
      const result = await page.evaluate(() => {
        const attempts: Record<string, string> = {};
        const attempt = (name: string, f: () => void): void => {
          try {
            f();
            attempts[name] = 'allowed';
          } catch (e) {
            attempts[name] = e instanceof Error ? e.name : 'threw';
          }
        };
        const div = document.createElement('div');
        attempt('innerHTML', () => (div.innerHTML = '<img src=x onerror="window.pwned=1">'));
        attempt('insertAdjacentHTML', () => div.insertAdjacentHTML('beforeend', '<b>x</b>'));
        attempt('script.src', () => (document.createElement('script').src = '/assets/x.js'));
        const tt = (window as unknown as { trustedTypes?: { createPolicy(n: string, o: object): unknown } })
          .trustedTypes;
        attempt('createPolicy', () => tt?.createPolicy('mine', { createHTML: (s: string) => s }));
        return attempts;
      });
      expect(result).toEqual({
        innerHTML: 'TypeError',
        insertAdjacentHTML: 'TypeError',
        'script.src': 'TypeError',
        createPolicy: 'TypeError',
      });
    });

    it('a page without the token, or with a wrong one, says so and opens no socket session', async () => {
      const { page } = await newPage();
      const sockets: string[] = [];
      page.on('websocket', (ws) => sockets.push(ws.url()));
      await page.goto(`${web.origin}/`);
      await expect
        .poll(() => connection(page), POLL)
        .toBe('Not connected: this page has no access token: open the URL that `gatehouse web` printed');
      expect(sockets).toEqual([]);
      expect(await page.getByTestId('worker-status').count()).toBe(0); // no worker state reached the page

      const wrong = web.token.slice(0, -1) + (web.token.endsWith('A') ? 'B' : 'A');
      await page.goto(`${web.origin}/#token=${wrong}`);
      await expect
        .poll(() => connection(page), POLL)
        .toBe('Not connected: unauthorized: wrong token: open the URL that `gatehouse web` printed');
      expect(page.url()).toBe(`${web.origin}/`);
      expect(await page.getByTestId('worker-status').count()).toBe(0); // no worker state reached the page
      // The printed URL, opened again in the same tab, replaces the wrong token.
      await page.goto(web.url);
      await expect.poll(() => connection(page), POLL).toBe('Connected');
    });
  },
);
