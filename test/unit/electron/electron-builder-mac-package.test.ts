import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID } from '../../../src/main/shells/electron/app-identity';
import { expectLauncherOpensFolders } from './helpers/launcher';
import { packMacDir, root } from './helpers/package-offline';

// `npm run dist` for macOS as far as it goes off a Mac: electron-builder makes Gatehouse.app from a stand-in
// Electron.app (the real file selection, asar, asarUnpack, extraResources and the afterPack hook; signing, the dmg
// and the zip need a Mac or downloads). What a Mac needs and Linux never checks: node-pty's spawn-helper is
// executable (node-pty 1.1.0 publishes it as 0644, and every command then fails with "posix_spawnp failed").

let outDir: string;
let app: string;

beforeAll(async () => {
  outDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-package-mac-')));
  app = await packMacDir(outDir);
}, 240_000);

afterAll(() => {
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('packaging for macOS with electron-builder (offline, unsigned)', () => {
  it("node-pty's spawn-helper is 0755 in each darwin prebuild of the packed app", () => {
    const prebuilds = path.join(app, 'Contents/Resources/app.asar.unpacked/node_modules/node-pty/prebuilds');
    const darwin = fs.readdirSync(prebuilds).filter((p) => p.startsWith('darwin-'));
    expect(darwin.sort()).toEqual(['darwin-arm64', 'darwin-x64']);
    const source = path.join(root, 'node_modules/node-pty/prebuilds/darwin-arm64/spawn-helper');
    console.log(`[package mac] node_modules' spawn-helper: mode ${mode(source).toString(8)}`);
    for (const p of darwin) {
      expect(mode(path.join(prebuilds, p, 'spawn-helper')), p).toBe(0o755);
      expect(fs.existsSync(path.join(prebuilds, p, 'pty.node')), p).toBe(true);
    }
  });

  it('is the app the id names (bundle id = appId = the AppUserModelId the app sets on Windows)', () => {
    const plist = fs.readFileSync(path.join(app, 'Contents/Info.plist'), 'utf8');
    expect(plist).toMatch(
      new RegExp(`<key>CFBundleIdentifier</key>\\s*<string>${APP_ID.replace(/\./g, '\\.')}</string>`),
    );
    expect(mode(path.join(app, 'Contents/MacOS/Gatehouse'))).toBe(0o755);
  });

  it('takes folders dropped on the Dock icon and gatehouse:// links (open-file, open-url)', () => {
    const plist = fs.readFileSync(path.join(app, 'Contents/Info.plist'), 'utf8');
    expect(plist).toMatch(/<key>CFBundleURLSchemes<\/key>\s*<array>\s*<string>gatehouse<\/string>/);
    expect(plist).toMatch(/<key>LSItemContentTypes<\/key>\s*<array>\s*<string>public\.folder<\/string>/);
  });

  it('Contents/Resources/bin/gatehouse, linked onto PATH, opens a folder in the app', async () => {
    const launcher = path.join(app, 'Contents/Resources/bin/gatehouse');
    expect(mode(launcher)).toBe(0o755);
    // As build/README.md says to install it: a link in a folder on PATH.
    const bin = path.join(outDir, 'usr-local-bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(launcher, path.join(bin, 'gatehouse'));
    await expectLauncherOpensFolders(path.join(bin, 'gatehouse'), fs.mkdtempSync(path.join(outDir, 'launch-')));
  });
});
