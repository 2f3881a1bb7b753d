import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleBuildReason } from '../../scripts/build-inputs.mjs';
import { AppInfoSchema } from '../../src/shared/api';
import { chromiumSkipReason, launchChromium } from '../e2e/support/browser';
import { openApiSocket } from '../e2e/support/api-socket';
import { isProcessAlive, makeTempDir, removeTempDir, REPO_ROOT, requireBuiltApp } from '../e2e/support/start-web';
import { codeCacheEnv } from '../support/code-cache-env';

// The newcomer's two commands, the second for real: `npm start` in this clone (built by `npm test`'s pretest, so
// the launcher's check finds the build current and builds nothing; a fresh clone's build and the decisions around
// it are test/unit/scripts/start-launcher.test.ts), on a machine without the Electron runtime: it serves the browser
// shell on the folder npm was started in, hands the system browser (here a stand-in that records what it gets) a
// one-time link instead of the token, and the page it leads to is the app, connected. Ctrl-C stops everything.

const URL_LINE = /^Gatehouse is running at (http:\/\/127\.0\.0\.1:(\d+))\/#token=([A-Za-z0-9_-]{43})$/m;

function get(
  url: string,
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject)
      .end();
  });
}

describe('npm start without an Electron runtime', { timeout: 120_000 }, () => {
  let root: string;
  let project: string;
  let opened: string;
  let npm: ReturnType<typeof spawn>;
  let out = '';
  let err = '';
  let closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  beforeAll(() => {
    requireBuiltApp();
    // Building here would rewrite out/ under every other test of the run: a build that is not current is a failure.
    const stale = staleBuildReason(REPO_ROOT);
    if (stale) throw new Error(`out/ is not current (${stale}): run \`npm run build\` first`);
    root = makeTempDir('gh-npm-start-');
    project = path.join(root, 'my-app');
    const home = path.join(root, 'home');
    const noElectron = path.join(root, 'no-electron');
    for (const d of [project, home, noElectron]) fs.mkdirSync(d);
    fs.writeFileSync(path.join(project, 'README.md'), '# my app\n');
    opened = path.join(root, 'opened');
    const browser = path.join(root, 'browser');
    fs.writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${opened}'\n`, { mode: 0o755 });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      GATEHOUSE_HOME: path.join(home, 'gatehouse'),
      // Where Electron's binary should be, an empty folder: a machine on which it was never downloaded.
      ELECTRON_OVERRIDE_DIST_PATH: noElectron,
      // The system browser: a stand-in, so that no real one ever opens (the docs' GATEHOUSE_NO_OPEN=1 skips it).
      BROWSER: browser,
      npm_config_update_notifier: 'false',
      ...codeCacheEnv(),
    };
    // As typed in a terminal in the project: `npm --prefix <clone> start` (npm runs the script in the clone).
    npm = spawn('npm', ['--prefix', REPO_ROOT, 'start'], {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    npm.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    npm.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    closed = new Promise((resolve) => npm.once('close', (code, signal) => resolve({ code, signal })));
  });

  afterAll(async () => {
    if (npm?.pid && isProcessAlive(npm.pid)) process.kill(-npm.pid, 'SIGKILL');
    removeTempDir(root);
  });

  it('prints the URL, then one line on the desktop runtime, and builds nothing when the build is current', async () => {
    await expect.poll(() => out, { timeout: 60_000 }).toMatch(/Ctrl-C stops it\.\n/);
    const lines = out.slice(out.search(URL_LINE)).split('\n');
    expect(lines[0]).toMatch(URL_LINE);
    expect(lines[1]).toMatch(
      /^This is the browser shell: the desktop app needs the Electron runtime, not installed here \(.*no-electron.*\); get it with `npx install-electron`, then run npm start again\.$/,
    );
    expect(lines[2]).toBe(`Opening it in your browser (${path.join(root, 'browser')}).`);
    expect(err).not.toContain('building');
  });

  it('serves the app on the folder npm was started in, behind the printed token', async () => {
    const [, origin = '', port = '', token = ''] = URL_LINE.exec(out)!;
    const page = await get(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Gatehouse</title>');
    const socket = await openApiSocket(Number(port), { token });
    try {
      const info = await socket.call('getAppInfo', {});
      expect(info.kind).toBe('response');
      const app = AppInfoSchema.parse((info as { result: unknown }).result);
      expect(app).toMatchObject({ shell: 'browser', project });
    } finally {
      await socket.close();
    }
  });

  it('gives the browser a one-time link, never the token, which leads to the connected app once', async () => {
    const [, origin = '', , token = ''] = URL_LINE.exec(out)!;
    await expect.poll(() => fs.existsSync(opened) && fs.readFileSync(opened, 'utf8')).toMatch(/\n$/);
    const link = fs.readFileSync(opened, 'utf8').trim();
    expect(link).toMatch(new RegExp(`^${origin}/launch/[A-Za-z0-9_-]{32}$`));
    expect(link).not.toContain(token);
    // A HEAD (a link checker) neither redirects nor spends it; a made-up code leads nowhere.
    expect(await get(link, 'HEAD')).toMatchObject({ status: 405 });
    expect((await get(`${origin}/launch/${'A'.repeat(32)}`)).status).toBe(410);
    const skip = chromiumSkipReason();
    if (skip) {
      // Without Chromium, the redirect itself: once, to the page with the token in its fragment.
      expect(await get(link)).toMatchObject({ status: 303, headers: { location: `${origin}/#token=${token}` } });
    } else {
      const browser: Browser = await launchChromium();
      try {
        const context = await browser.newContext();
        const tab = await context.newPage();
        await tab.goto(link);
        await expect.poll(() => tab.getByTestId('connection-status').textContent()).toBe('Connected');
        expect(tab.url()).toBe(`${origin}/`);
        await expect.poll(() => tab.getByText('in my-app').count()).toBeGreaterThan(0);
        await context.close();
      } finally {
        await browser.close();
      }
    }
    const again = await get(link);
    expect(again.status).toBe(410);
    expect(again.body).toContain('opens Gatehouse once');
  });

  it('stops on Ctrl-C (SIGINT to the whole process group, as a terminal sends it), leaving no process behind', async () => {
    process.kill(-npm.pid!, 'SIGINT');
    // npm ends as the Ctrl-C it saw asks (by the signal, or 130), after the launcher and the server have stopped.
    const { code, signal } = await closed;
    expect(code === 0 || code === 130 || signal === 'SIGINT', `exit ${code ?? signal}`).toBe(true);
    expect(err).not.toMatch(/\n\s+at |Error:/);
    await expect.poll(() => isProcessAlive(-npm.pid!)).toBe(false);
  });
});
