import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LINUX_PACKAGE_NAME } from '../../../src/main/shells/electron/app-identity';
import { loadElectronUpdater } from '../../../src/main/shells/electron/electron-updater-loader';
import { detectLinuxInstall } from '../../../src/main/shells/electron/linux-install';
import type { LinuxInstallSources } from '../../../src/main/shells/electron/linux-install';

// Which updater a Linux copy of the app gets decides whether an update may be installed at quit: an AppImage
// replaces itself, a deb or rpm needs root. electron-builder writes `package-type` (deb, rpm) into the folder every
// Linux target is made from, so the file alone cannot be trusted: an AppImage, a deb and an rpm may all carry the
// value of whichever target wrote last.

let dir: string;
let resources: string;
let dpkgInfo: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-linux-install-')));
  resources = path.join(dir, 'resources');
  dpkgInfo = path.join(dir, 'var/lib/dpkg/info');
  fs.mkdirSync(resources);
  fs.mkdirSync(dpkgInfo, { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const sources = (env: NodeJS.ProcessEnv = {}): LinuxInstallSources => ({
  env,
  resourcesDir: resources,
  packageName: LINUX_PACKAGE_NAME,
  dpkgInfoDir: dpkgInfo,
});
const packageType = (value: string) => fs.writeFileSync(path.join(resources, 'package-type'), value);
const installedByDpkg = () => fs.writeFileSync(path.join(dpkgInfo, `${LINUX_PACKAGE_NAME}.list`), '/opt/Gatehouse\n');

describe('detectLinuxInstall', () => {
  it('an AppImage is an AppImage whatever package-type it was packed with', async () => {
    packageType('deb');
    installedByDpkg();
    expect(await detectLinuxInstall(sources({ APPIMAGE: '/home/me/Gatehouse.AppImage' }))).toBe('appimage');
  });

  it("deb against rpm: dpkg's record of the package decides, not the file", async () => {
    for (const written of ['deb', 'rpm', 'rpm\n']) {
      packageType(written);
      expect(await detectLinuxInstall(sources()), `${JSON.stringify(written)}, not in dpkg`).toBe('rpm');
    }
    installedByDpkg();
    for (const written of ['deb', 'rpm']) {
      packageType(written);
      expect(await detectLinuxInstall(sources()), `${written}, in dpkg`).toBe('deb');
    }
    packageType('pacman');
    expect(await detectLinuxInstall(sources())).toBe('pacman');
  });

  it('no package-type, or one electron-updater does not know: no package install (its own choice stands)', async () => {
    expect(await detectLinuxInstall(sources())).toBeNull();
    for (const other of ['', 'snap', 'deb rpm', '../deb']) {
      packageType(other);
      expect(await detectLinuxInstall(sources()), JSON.stringify(other)).toBeNull();
    }
  });
});

describe('loadElectronUpdater (the real electron-updater package)', () => {
  /** Runs `fn` with `require('electron')` answering a stand-in app, as electron-updater's constructors need. */
  async function withElectron<T>(fn: () => Promise<T>): Promise<T> {
    const app = Object.assign(new EventEmitter(), {
      name: 'Gatehouse',
      isPackaged: true,
      getVersion: () => '0.1.0',
      getName: () => 'Gatehouse',
      getPath: () => dir,
      getAppPath: () => dir,
      whenReady: async () => undefined,
    });
    const loader = Module as unknown as { _load: (...a: unknown[]) => unknown };
    const originalLoad = loader._load;
    const proc = process as unknown as { resourcesPath?: string };
    const originalResources = proc.resourcesPath;
    loader._load = function (request: unknown, ...rest: unknown[]) {
      return request === 'electron' ? { app } : originalLoad.call(this, request, ...rest);
    };
    proc.resourcesPath = resources;
    try {
      return await fn();
    } finally {
      loader._load = originalLoad;
      proc.resourcesPath = originalResources;
    }
  }

  it('gives a deb its DebUpdater, ready for a generic feed, and says a package manager installs it', async () => {
    packageType('deb'); // what electron-builder's deb target writes
    installedByDpkg();
    await withElectron(async () => {
      const { updater, packageManager } = await loadElectronUpdater(sources());
      expect(updater.constructor.name).toBe('DebUpdater');
      expect(packageManager).toBe('deb');
      for (const method of ['setFeedURL', 'checkForUpdates', 'quitAndInstall', 'on'] as const)
        expect(typeof updater[method]).toBe('function');
      expect(() =>
        updater.setFeedURL({ provider: 'generic', url: 'https://updates.example.com/gatehouse' }),
      ).not.toThrow();
      updater.allowDowngrade = false;
      expect(updater.allowDowngrade).toBe(false);
    });
  });

  it('an rpm carrying "deb" gets the RpmUpdater; an AppImage carrying either, the AppImageUpdater', async () => {
    packageType('deb');
    await withElectron(async () => {
      const rpm = await loadElectronUpdater(sources());
      expect([rpm.updater.constructor.name, rpm.packageManager]).toEqual(['RpmUpdater', 'rpm']);
      const appImage = await loadElectronUpdater(sources({ APPIMAGE: path.join(dir, 'Gatehouse.AppImage') }));
      expect([appImage.updater.constructor.name, appImage.packageManager]).toEqual(['AppImageUpdater', null]);
    });
  });

  it('elsewhere (macOS, Windows, an unpacked folder) it is electron-updater’s autoUpdater, which replaces the app', async () => {
    await withElectron(async () => {
      // A lazy CommonJS getter, which import() would not expose.
      const elsewhere = await loadElectronUpdater(null);
      expect(elsewhere.packageManager).toBeNull();
      expect(typeof elsewhere.updater.checkForUpdates).toBe('function');
      const unpacked = await loadElectronUpdater(sources());
      expect(unpacked.packageManager).toBeNull();
    });
  });
});
