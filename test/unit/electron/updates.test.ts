import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUpdatesHandlers } from '../../../src/main/services/app/updates-handlers';
import { resolveUpdateFeed } from '../../../src/main/shells/electron/update-feed';
import { DesktopUpdates } from '../../../src/main/shells/electron/updates';
import type { LoadedUpdater, UpdateFeed, UpdaterLike } from '../../../src/main/shells/electron/updates';
import type { UpdateStatus } from '../../../src/shared/updates-contract';
import { UpdateStatusSchema } from '../../../src/shared/updates-contract';

/** electron-updater's autoUpdater as the service sees it: a check either finds nothing, an update, or fails. */
class FakeUpdater extends EventEmitter implements UpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  allowDowngrade = true;
  logger: UpdaterLike['logger'] = null;
  feeds: string[] = [];
  checks = 0;
  installs: Array<[boolean | undefined, boolean | undefined]> = [];
  next: 'none' | { version: string } | Error = 'none';
  setFeedURL(o: { provider: 'generic'; url: string }) {
    this.feeds.push(`${o.provider} ${o.url}`);
  }
  async checkForUpdates() {
    this.checks++;
    this.emit('checking-for-update');
    const next = this.next;
    if (next instanceof Error) {
      this.emit('error', next);
      throw next;
    }
    if (next === 'none') {
      this.emit('update-not-available', { version: '0.1.0' });
      return null;
    }
    this.emit('update-available', next);
    this.emit('download-progress', { percent: 41.6 });
    return { updateInfo: next };
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean) {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

function service(
  feed: UpdateFeed | (() => Promise<UpdateFeed>),
  packaged = true,
  packageManager: LoadedUpdater['packageManager'] = null,
  confirmRestart?: () => Promise<boolean>,
) {
  const updater = new FakeUpdater();
  const seen: UpdateStatus[] = [];
  let loads = 0;
  const updates = new DesktopUpdates({
    currentVersion: '0.1.0',
    packaged,
    loadUpdater: async () => {
      loads++;
      return { updater, packageManager };
    },
    resolveFeed: typeof feed === 'function' ? feed : async () => feed,
    log: () => undefined,
    now: () => new Date('2030-01-02T03:04:05Z'),
    ...(confirmRestart ? { confirmRestart } : {}),
  });
  updates.onStatus((s) => seen.push(s));
  return { updates, updater, seen, loads: () => loads };
}

describe('DesktopUpdates', () => {
  it('checks the https feed with a generic provider, downgrades refused, and says when it is the latest', async () => {
    const t = service({ url: 'https://updates.example.com/gatehouse' });
    expect(t.updates.status()).toMatchObject({ state: 'idle', currentVersion: '0.1.0' });
    const after = await t.updates.check();
    expect(t.updater.feeds).toEqual(['generic https://updates.example.com/gatehouse']);
    expect(t.updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, allowDowngrade: false });
    expect(after).toMatchObject({
      state: 'up-to-date',
      message: 'Gatehouse 0.1.0 is the latest version.',
      checkedAt: '2030-01-02T03:04:05.000Z',
    });
    expect(t.seen.map((s) => s.state)).toEqual(['checking', 'up-to-date']);
    for (const s of t.seen) expect(UpdateStatusSchema.safeParse(s).success).toBe(true);
    await t.updates.check();
    expect(t.updater.feeds).toHaveLength(1); // the same feed is not set again
    expect(t.loads()).toBe(1);
  });

  it('an update found downloads with progress, then offers a restart that installs it', async () => {
    const t = service({ url: 'https://updates.example.com/gatehouse' });
    t.updater.next = { version: '0.2.0' };
    const after = await t.updates.check();
    expect(after).toMatchObject({ state: 'downloading', version: '0.2.0', percent: 42 });
    await expect(t.updates.install()).rejects.toThrow(/no update has been downloaded/);
    t.updater.emit('update-downloaded', { version: '0.2.0' });
    expect(t.updates.status()).toMatchObject({
      state: 'ready',
      version: '0.2.0',
      message: expect.stringMatching(/downloaded and verified/),
    });
    // A check while one is downloaded or downloading does not start another.
    await t.updates.check();
    expect(t.updater.checks).toBe(1);
    await t.updates.install();
    expect(t.updater.installs).toEqual([[false, true]]);
  });

  it('"Restart to update" asks the quit guard first: a person who waits for the running turn keeps the app open', async () => {
    const answers = [false, true];
    let asked = 0;
    const t = service({ url: 'https://updates.example.com/gatehouse' }, true, null, async () => {
      asked++;
      return answers.shift()!;
    });
    t.updater.next = { version: '0.2.0' };
    await t.updates.check();
    t.updater.emit('update-downloaded', { version: '0.2.0' });
    expect(await t.updates.install()).toMatchObject({ state: 'ready', version: '0.2.0' });
    expect(t.updater.installs).toEqual([]); // "Wait": the installer never started
    await t.updates.install();
    expect(asked).toBe(2);
    expect(t.updater.installs).toEqual([[false, true]]);
  });

  it('a deb or rpm is never installed at quit (root would be asked for as the app closes): the person installs it', async () => {
    for (const manager of ['deb', 'rpm'] as const) {
      const t = service({ url: 'https://updates.example.com/gatehouse' }, true, manager);
      t.updater.next = { version: '0.2.0' };
      await t.updates.check();
      expect(t.updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: false, allowDowngrade: false });
      const file = `/home/me/.cache/gatehouse-updater/pending/gatehouse-0.2.0.${manager}`;
      t.updater.emit('update-downloaded', { version: '0.2.0', downloadedFile: file });
      const ready = t.updates.status();
      expect(ready).toMatchObject({ state: 'ready', version: '0.2.0' });
      expect(ready.message).toContain(file);
      expect(ready.message).toMatch(
        new RegExp(`a ${manager} package needs your password, so it is not installed when you quit`),
      );
      expect(ready.message).not.toMatch(/installs when you quit/);
      expect(UpdateStatusSchema.safeParse(ready).success).toBe(true);
      // Asked for, it is installed (the package manager asks for the password then).
      t.updates.install();
      expect(t.updater.installs).toEqual([[false, true]]);
    }
  });

  it('a failed check (a bad signature or sha512, no network) shows the reason on one line; the next check may succeed', async () => {
    const t = service({ url: 'https://updates.example.com/gatehouse' });
    t.updater.next = new Error('sha512 checksum mismatch, expected abc, got def\n    at verify (stack)');
    expect(await t.updates.check()).toMatchObject({
      state: 'error',
      message: 'Updating failed: sha512 checksum mismatch, expected abc, got def',
    });
    t.updater.next = 'none';
    expect(await t.updates.check()).toMatchObject({ state: 'up-to-date' });
  });

  it('no feed: updates are off with the reason, and the updater is never loaded', async () => {
    const t = service({ off: 'No update server is set: add updates.url to /x/settings.yaml.' });
    expect(await t.updates.check()).toMatchObject({ state: 'off', message: expect.stringMatching(/add updates.url/) });
    expect(t.loads()).toBe(0);
  });

  it('one check at a time; a development build never checks', async () => {
    let release: (f: UpdateFeed) => void = () => undefined;
    const t = service(() => new Promise<UpdateFeed>((r) => (release = r)));
    const a = t.updates.check();
    const b = t.updates.check();
    release({ url: 'https://u.example.com/' });
    expect(await a).toBe(await b);
    expect(t.updater.checks).toBe(1);

    const dev = service({ url: 'https://u.example.com/' }, false);
    expect(await dev.updates.check()).toMatchObject({
      state: 'unavailable',
      message: expect.stringMatching(/development build/),
    });
    expect(dev.loads()).toBe(0);
  });

  it('an updater that cannot load is an error, not a crash', async () => {
    const updates = new DesktopUpdates({
      currentVersion: '0.1.0',
      packaged: true,
      loadUpdater: async () => {
        throw new Error('ENOENT: resources/app-update.yml');
      },
      resolveFeed: async () => ({ url: 'https://u.example.com/' }),
      log: () => undefined,
    });
    expect(await updates.check()).toMatchObject({
      state: 'error',
      message: 'The updater could not start: ENOENT: resources/app-update.yml',
    });
  });
});

describe('resolveUpdateFeed', () => {
  let dir: string;
  let resources: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-update-feed-')));
    resources = path.join(dir, 'resources');
    fs.mkdirSync(resources);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const settings = (text: string) => fs.writeFileSync(path.join(dir, 'settings.yaml'), text);
  const builtIn = (text: string) => fs.writeFileSync(path.join(resources, 'app-update.yml'), text);
  const resolve = (platform: NodeJS.Platform = 'linux') =>
    resolveUpdateFeed({ configDir: dir, resourcesDir: resources, platform });

  it("the user's updates.url wins over the package's address", async () => {
    builtIn('provider: generic\nurl: https://builtin.example.com/gh\nupdaterCacheDirName: gatehouse-updater\n');
    expect(await resolve()).toEqual({ url: 'https://builtin.example.com/gh' });
    settings('updates:\n  url: https://mine.example.org/gatehouse\n');
    expect(await resolve()).toEqual({ url: 'https://mine.example.org/gatehouse' });
  });

  it('refuses http and anything malformed, and then stays off (never falls back to another address)', async () => {
    builtIn('provider: generic\nurl: https://builtin.example.com/gh\n');
    for (const bad of [
      'updates:\n  url: http://insecure.example.com/\n',
      'updates:\n  url: file:///tmp/feed\n',
      'updates:\n  url: https://x.example.com/\n  channel: beta\n',
      'updates: [1]\n',
    ]) {
      settings(bad);
      const feed = await resolve();
      expect(feed, bad).toEqual({
        off: expect.stringMatching(/settings\.yaml: updates.*updates are off until it is fixed/),
      });
    }
    settings('updates: {url: [unclosed\n');
    expect(await resolve()).toEqual({ off: expect.stringMatching(/Updates are off until the settings can be read/) });
  });

  it('the .invalid placeholder of an unconfigured build is no address: updates are off with what to set', async () => {
    builtIn('provider: generic\nurl: https://updates.gatehouse.example.invalid/\n');
    expect(await resolve()).toEqual({
      off: `No update server is set: add updates.url (an https:// folder) to ${path.join(dir, 'settings.yaml')}.`,
    });
    fs.rmSync(path.join(resources, 'app-update.yml'));
    expect(await resolve()).toEqual({ off: expect.stringMatching(/No update server is set/) });
  });

  it('Windows: only a code-signed build (app-update.yml names its publisher) checks for updates', async () => {
    settings('updates:\n  url: https://mine.example.org/gatehouse\n');
    builtIn('provider: generic\nurl: https://builtin.example.com/gh\n');
    expect(await resolve('win32')).toEqual({ off: expect.stringMatching(/not code-signed/) });
    builtIn('provider: generic\nurl: https://builtin.example.com/gh\npublisherName:\n  - Gatehouse Contributors\n');
    expect(await resolve('win32')).toEqual({ url: 'https://mine.example.org/gatehouse' });
  });
});

describe('the updates channels', () => {
  it('a shell without an updater says so, and refuses to install', async () => {
    const handlers = createUpdatesHandlers(undefined);
    expect(await handlers.getUpdateStatus({})).toMatchObject({
      state: 'unavailable',
      message: expect.stringMatching(/does not update itself/),
    });
    expect(await handlers.checkForUpdates({})).toMatchObject({ state: 'unavailable' });
    await expect(handlers.installUpdate({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
