import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Arch } from 'electron-builder';
import type { AfterPackContext } from 'electron-builder';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import afterPack from '../../../scripts/after-pack.mjs';

// node-pty 1.1.0 publishes its macOS spawn-helper with mode 0644 (node-pty#850): every command then fails on macOS
// with "posix_spawnp failed". npm's postinstall (scripts/postinstall.mjs) and electron-builder's afterPack hook
// (scripts/after-pack.mjs) set 0755. Here both run on a node-pty folder laid out as the published package is, with
// its files hard-linked to a "store" as a package manager's (or electron-builder's copier's) are.

const root = path.resolve(__dirname, '../../..');
const mode = (file: string) => fs.statSync(file).mode & 0o777;

let dir: string;
let store: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-spawn-helper-')));
  store = path.join(dir, 'store');
  fs.mkdirSync(store);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** node-pty as published: darwin prebuilds with a 0644 spawn-helper (hard links to the store), win32 without one. */
function nodePty(at: string, darwin: string[] = ['darwin-arm64', 'darwin-x64']): string {
  for (const p of [...darwin, 'win32-x64']) {
    const folder = path.join(at, 'prebuilds', p);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'pty.node'), 'addon');
    if (!p.startsWith('darwin')) continue;
    const original = path.join(store, `${p}-spawn-helper`);
    fs.writeFileSync(original, `helper for ${p}`, { mode: 0o644 });
    fs.chmodSync(original, 0o644);
    fs.linkSync(original, path.join(folder, 'spawn-helper'));
  }
  return at;
}

describe('postinstall (npm ci)', () => {
  it('is the project’s own postinstall script, which npm runs whatever allowScripts says', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.postinstall).toBe('node scripts/postinstall.mjs');
  });

  it('makes every darwin spawn-helper executable, leaves the store’s copy alone, and says what it changed', () => {
    const pty = nodePty(path.join(dir, 'node_modules/node-pty'));
    const run = () =>
      spawnSync(process.execPath, [path.join(root, 'scripts/postinstall.mjs'), pty], { cwd: dir, encoding: 'utf8' });
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    for (const p of ['darwin-arm64', 'darwin-x64']) {
      const helper = path.join(pty, 'prebuilds', p, 'spawn-helper');
      expect(mode(helper), p).toBe(0o755);
      expect(fs.readFileSync(helper, 'utf8')).toBe(`helper for ${p}`);
      expect(mode(path.join(store, `${p}-spawn-helper`)), `${p} in the store`).toBe(0o644);
      expect(first.stdout).toContain(`made node_modules/node-pty/prebuilds/${p}/spawn-helper executable`);
    }
    expect(fs.existsSync(path.join(pty, 'prebuilds/win32-x64/spawn-helper'))).toBe(false);
    expect(fs.readdirSync(path.join(pty, 'prebuilds/darwin-x64')).sort()).toEqual(['pty.node', 'spawn-helper']);
    // Once set, a second install has nothing to say.
    expect(run()).toMatchObject({ status: 0, stdout: '' });
  });

  it('a node-pty without darwin prebuilds (or none at all) is nothing to fix', () => {
    const pty = nodePty(path.join(dir, 'node-pty'), []);
    for (const target of [pty, path.join(dir, 'missing')]) {
      const r = spawnSync(process.execPath, [path.join(root, 'scripts/postinstall.mjs'), target], { encoding: 'utf8' });
      expect(r).toMatchObject({ status: 0, stdout: '', stderr: '' });
    }
  });
});

describe('afterPack (electron-builder)', () => {
  /** A packed app's resources folder with node-pty unpacked and the launcher as a checkout without modes has it. */
  function packed(darwin?: string[]): string {
    const resources = path.join(dir, 'app/resources');
    nodePty(path.join(resources, 'app.asar.unpacked/node_modules/node-pty'), darwin);
    fs.mkdirSync(path.join(resources, 'bin'));
    fs.writeFileSync(path.join(resources, 'bin/gatehouse'), '#!/bin/sh\n', { mode: 0o644 });
    return resources;
  }
  const context = (resources: string, platform: string, arch: Arch) =>
    ({
      appOutDir: path.dirname(resources),
      electronPlatformName: platform,
      arch,
      packager: { getResourcesDir: () => resources },
    }) as unknown as AfterPackContext;

  it('sets 0755 on each darwin spawn-helper and the launcher in the packed app, not on the files it was copied from', async () => {
    const resources = packed();
    await afterPack(context(resources, 'darwin', Arch.arm64));
    for (const p of ['darwin-arm64', 'darwin-x64']) {
      expect(mode(path.join(resources, 'app.asar.unpacked/node_modules/node-pty/prebuilds', p, 'spawn-helper'))).toBe(
        0o755,
      );
      expect(mode(path.join(store, `${p}-spawn-helper`))).toBe(0o644);
    }
    expect(mode(path.join(resources, 'bin/gatehouse'))).toBe(0o755);
  });

  it('refuses a macOS app without the spawn-helper of its architecture; Linux and Windows apps do not need one', async () => {
    await expect(afterPack(context(packed(['darwin-x64']), 'darwin', Arch.arm64))).rejects.toThrow(
      /spawn-helper is missing from the packed app \(.*prebuilds\/darwin-arm64\/spawn-helper\): every command would fail on macOS/,
    );
    fs.rmSync(path.join(dir, 'app'), { recursive: true });
    await expect(afterPack(context(packed(['darwin-arm64']), 'darwin', Arch.universal))).rejects.toThrow(
      /darwin-x64\/spawn-helper/,
    );
    fs.rmSync(path.join(dir, 'app'), { recursive: true });
    const linux = packed([]);
    await expect(afterPack(context(linux, 'linux', Arch.x64))).resolves.toBeUndefined();
    await expect(afterPack(context(linux, 'win32', Arch.x64))).resolves.toBeUndefined();
  });
});
