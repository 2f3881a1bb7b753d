import fs from 'node:fs';
import { chromium } from 'playwright';
import type { Browser } from 'playwright';
import { inject } from 'vitest';
import { CHROMIUM_ARGS as BENCH_CHROMIUM_ARGS } from '../../../bench/ui/chromium-args';

/** Debian's Chromium: the e2e tests never download a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The bench's flags (no sandbox, no GPU, no background traffic, no omnibox popup per context), and for the tests only,
 * V8 without its optimising compilers (Maglev, TurboFan) in the pages: a test's page lives for seconds, and compiling
 * its hot code cost more than it saved. Measured on six e2e files (chat-render, layout, display-approvals, app, hooks,
 * transcript), twice each way: Chromium renderer CPU 72.6/61.9 s with them, 56.9/51.9 s without. The bench keeps V8
 * as users have it.
 */
export const CHROMIUM_ARGS = [...BENCH_CHROMIUM_ARGS, '--js-flags=--no-opt --no-maglev'];

/** Null when Chromium can be launched; otherwise the reason to skip (used with `describe.skipIf`). */
export function chromiumSkipReason(): string | null {
  return fs.existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} is not installed (apt-get install chromium)`;
}

/**
 * The real Chromium. In the integration project, a connection of this file's own to the one Chromium the run shares
 * (test/support/global-setup.ts): `close()` closes this connection's contexts and pages, not the browser. Elsewhere (a
 * unit test), a browser of its own.
 */
export function launchChromium(): Promise<Browser> {
  const wsEndpoint = inject('chromiumWsEndpoint');
  if (wsEndpoint) return chromium.connect(wsEndpoint);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

let processBrowser: Promise<Browser> | null = null;

/**
 * One connection (see launchChromium) for every file this Vitest worker runs, never closed by a file: the chat apps'
 * contexts outlive a file (see ContextPool), and the worker's end closes it. A new one once it is lost.
 */
export function processChromium(): Promise<Browser> {
  if (!processBrowser) {
    const connecting = launchChromium();
    processBrowser = connecting;
    connecting.then(
      (browser) =>
        browser.on('disconnected', () => {
          if (processBrowser === connecting) processBrowser = null;
        }),
      () => {
        if (processBrowser === connecting) processBrowser = null;
      },
    );
  }
  return processBrowser;
}
