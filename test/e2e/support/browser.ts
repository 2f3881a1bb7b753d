import fs from 'node:fs';
import { chromium } from 'playwright';
import type { Browser } from 'playwright';
import { inject } from 'vitest';
import { CHROMIUM_ARGS } from '../../../src/main/bench/ui/chromium-args';

/** Debian's Chromium: the e2e tests never download a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The bench's flags (no sandbox, no GPU, no background traffic, no omnibox popup per context). */
export { CHROMIUM_ARGS };

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
