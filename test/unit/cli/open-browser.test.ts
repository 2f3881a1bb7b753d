import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserCommand, noBrowserReason, openInBrowser } from '../../../src/main/shells/cli/open-browser';
import { LaunchCodes } from '../../../src/main/shells/web/launch-codes';

// `gatehouse web --open` (what `npm start` runs): when a browser is opened and with what, said in one line, never a
// failure; and the one-time launch link the browser's command line gets instead of the token.

const DESKTOP = { DISPLAY: ':0' };

describe('when a browser is opened', () => {
  it.each([
    [{ ...DESKTOP }, 'linux', null],
    [{ WAYLAND_DISPLAY: 'wayland-0' }, 'linux', null],
    [{}, 'linux', 'no display: DISPLAY and WAYLAND_DISPLAY are unset'],
    [{}, 'darwin', null],
    [{}, 'win32', null],
    [{ ...DESKTOP, GATEHOUSE_NO_OPEN: '1' }, 'linux', 'GATEHOUSE_NO_OPEN is set'],
    [{ ...DESKTOP, GATEHOUSE_NO_OPEN: '0' }, 'linux', null],
    [{ ...DESKTOP, BROWSER: 'none' }, 'linux', 'BROWSER=none'],
    [{ ...DESKTOP, CI: 'true' }, 'linux', 'CI is set'],
    [{ ...DESKTOP, CI: 'false' }, 'linux', null],
    // A BROWSER command of the person's own is used even where nothing else would be (CI, no display) ...
    [{ CI: 'true', BROWSER: '/usr/bin/firefox' }, 'linux', null],
    // ... but never over GATEHOUSE_NO_OPEN.
    [{ BROWSER: '/usr/bin/firefox', GATEHOUSE_NO_OPEN: 'yes' }, 'linux', 'GATEHOUSE_NO_OPEN is set'],
  ] as const)('%j on %s: %s', (env, platform, reason) => {
    expect(noBrowserReason(env, platform)).toBe(reason);
  });

  it("runs BROWSER (with its own arguments) or the platform's opener, the URL last", () => {
    const url = 'http://127.0.0.1:1/launch/x';
    expect(browserCommand(url, { BROWSER: 'firefox --new-window' }, 'linux')).toEqual({
      command: 'firefox',
      args: ['--new-window', url],
    });
    expect(browserCommand(url, {}, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand(url, {}, 'darwin')).toEqual({ command: 'open', args: [url] });
    expect(browserCommand(url, {}, 'win32').args.at(-1)).toBe(url);
  });
});

describe('opening a browser', () => {
  let dir = '';
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  /** A stand-in browser: a script that records its arguments, then exits with `code`. */
  function fakeBrowser(code: number): { command: string; record: string } {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-open-'));
    const record = path.join(dir, 'args');
    const command = path.join(dir, 'browser');
    fs.writeFileSync(command, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\nexit ${code}\n`, { mode: 0o755 });
    return { command, record };
  }

  function open(env: NodeJS.ProcessEnv, count: number): Promise<string[]> {
    const lines: string[] = [];
    return new Promise((resolve) => {
      openInBrowser('http://127.0.0.1:1/launch/abc', env, 'linux', (line) => {
        lines.push(line);
        if (lines.length === count) resolve(lines);
      });
    });
  }

  it('hands the URL to the browser and says so', async () => {
    const fake = fakeBrowser(0);
    expect(await open({ BROWSER: fake.command }, 1)).toEqual([`Opening it in your browser (${fake.command}).`]);
    await expect
      .poll(() => fs.existsSync(fake.record) && fs.readFileSync(fake.record, 'utf8'))
      .toBe('http://127.0.0.1:1/launch/abc\n');
  });

  it('says what went wrong when the opener fails or is missing, and the address stays the way in', async () => {
    const fake = fakeBrowser(3);
    expect((await open({ BROWSER: fake.command }, 2))[1]).toBe(
      `${fake.command} exited with code 3: open the address above.`,
    );
    const missing = path.join(dir, 'no-such-browser');
    expect((await open({ BROWSER: missing }, 2))[1]).toBe(
      `Could not start ${missing} (ENOENT): open the address above.`,
    );
    expect(await open({}, 1)).toEqual([
      'Not opening a browser (no display: DISPLAY and WAYLAND_DISPLAY are unset): open the address above.',
    ]);
  });
});

describe('the one-time launch link', () => {
  it('opens once, only with the code issued, and not after it expired', () => {
    let now = 1_000;
    const codes = new LaunchCodes(() => now, 60_000);
    const a = codes.issue();
    const b = codes.issue();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a).not.toBe(b);
    expect(codes.redeem(a.slice(0, -1))).toBe(false);
    expect(codes.redeem('')).toBe(false);
    expect(codes.redeem(a)).toBe(true);
    expect(codes.redeem(a)).toBe(false);
    now += 60_000;
    expect(codes.redeem(b)).toBe(false); // expired, unused
    const c = codes.issue();
    now += 59_999;
    expect(codes.redeem(c)).toBe(true);
  });
});
