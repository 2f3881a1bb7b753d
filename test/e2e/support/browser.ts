import fs from 'node:fs';
import { chromium } from 'playwright';
import type { Browser } from 'playwright';

/** Debian's Chromium: the e2e tests never download a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Null when Chromium can be launched; otherwise the reason to skip (used with `describe.skipIf`). */
export function chromiumSkipReason(): string | null {
  return fs.existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} is not installed (apt-get install chromium)`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
