import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listPackage } from '@electron/asar';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINUX_PACKAGE_NAME } from '../../../src/main/shells/electron/app-identity';
import { resolveUpdateFeed } from '../../../src/main/shells/electron/update-feed';
import { expectLauncherOpensFolders } from './helpers/launcher';
import { computeLinuxTargets, loadBuilderConfig, packLinuxDir, root } from './helpers/package-offline';
import type { LinuxTargetResult } from './helpers/package-offline';

// `npm run dist` for Linux, run by electron-builder itself without downloading anything: the app is really packed
// (files, asar, unpacked natives, production dependencies) against a stand-in Electron binary, then every Linux
// target of build/electron-builder.yml runs its own metadata checks and computes its package metadata and desktop
// entry, stopping just before the external packaging tool. The deb target is where a missing `homepage` failed.

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  homepage: string;
  license: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
let outDir: string;
let unpacked: string;
let asarFiles: string[];
let targets: LinuxTargetResult[];

beforeAll(async () => {
  outDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-package-')));
  unpacked = await packLinuxDir(outDir);
  asarFiles = listPackage(path.join(unpacked, 'resources/app.asar'), { isPack: false }).map((f) =>
    f.split(path.sep).join('/'),
  );
  targets = await computeLinuxTargets(outDir, unpacked);
  const size = (p: string): number => {
    const st = fs.statSync(p);
    return st.isDirectory() ? fs.readdirSync(p).reduce((n, e) => n + size(path.join(p, e)), 0) : st.size;
  };
  const mb = (p: string) => (size(p) / 1e6).toFixed(1);
  console.log(
    `[package] app.asar ${mb(path.join(unpacked, 'resources/app.asar'))} MB, app.asar.unpacked ${mb(path.join(unpacked, 'resources/app.asar.unpacked'))} MB`,
  );
}, 240_000);

afterAll(() => {
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

const topLevelModules = (): Set<string> => {
  const names = new Set<string>();
  for (const f of asarFiles) {
    const m = /^\/node_modules\/((?:@[^/]+\/)?[^/]+)\/package\.json$/.exec(f);
    if (m) names.add(m[1]!);
  }
  return names;
};

describe('packaging for Linux with electron-builder (offline)', () => {
  it('every Linux target of the config passes its metadata checks (deb: homepage, maintainer) and computes its package', () => {
    const configured = loadBuilderConfig().linux.target;
    expect(targets).toHaveLength(configured.length);
    const deb = targets.find(
      (t): t is Extract<LinuxTargetResult, { kind: 'fpm' }> => t.kind === 'fpm' && t.package.endsWith('.deb'),
    );
    expect(deb, 'deb target').toBeDefined();
    const arg = (name: string) => deb!.args[deb!.args.indexOf(name) + 1];
    expect(arg('--url')).toBe(pkg.homepage);
    // The name dpkg records the package under, which the app looks for to tell a deb from an rpm (linux-install.ts).
    expect(arg('--name')).toBe(LINUX_PACKAGE_NAME);
    expect(arg('--maintainer')).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/);
    expect(arg('--vendor')).toBeTruthy();
    expect(arg('--license')).toBe(pkg.license);
    expect(arg('--description')).toMatch(/permission engine/);
    expect(targets.some((t) => t.kind === 'AppImage')).toBe(configured.includes('AppImage'));
    const rpm = targets.find((t) => t.kind === 'fpm' && t.package.endsWith('.rpm'));
    expect(rpm, 'rpm target').toBeDefined();
  }, 120_000);

  it('the checks are real: without a homepage the deb target refuses', async () => {
    const project = path.join(outDir, 'no-homepage');
    fs.mkdirSync(project);
    const { homepage: _dropped, ...rest } = pkg as unknown as Record<string, unknown>;
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify(rest));
    await expect(computeLinuxTargets(outDir, unpacked, project)).rejects.toThrow(/Please specify project homepage/);
  }, 120_000);

  it("desktop entries keep Chromium's sandbox on and name the window class Electron uses (desktopName)", () => {
    for (const t of targets) {
      expect(t.desktopEntry).not.toContain('--no-sandbox');
      expect(t.desktopEntry).toMatch(/^StartupWMClass=gatehouse-desktop$/m);
      expect(t.desktopEntry).toMatch(/^Categories=Development;$/m);
    }
    const deb = targets.find((t) => t.kind === 'fpm')!;
    expect(deb.desktopEntry).toMatch(/^Exec=\/opt\/Gatehouse\/gatehouse-desktop %U$/m);
    const appImage = targets.find((t) => t.kind === 'AppImage');
    if (appImage) expect(appImage.desktopEntry).toMatch(/^Exec=AppRun %U$/m);
  });

  it('app.asar holds the built bundles without source maps, and every production dependency', () => {
    for (const f of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/worker.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
    ]) {
      expect(asarFiles, f).toContain(f);
    }
    expect(asarFiles.filter((f) => f.startsWith('/out/') && f.endsWith('.map'))).toEqual([]);
    const shipped = topLevelModules();
    for (const dep of Object.keys(pkg.dependencies)) expect(shipped, dep).toContain(dep);
  });

  it("leaves out the dependencies' type declarations, source maps and the Anthropic SDK's TypeScript sources, and keeps its code", () => {
    const unused = asarFiles.filter(
      (f) => /^\/node_modules\/.*\.(d\.[cm]?ts|map)$/.test(f) || f.startsWith('/node_modules/@anthropic-ai/sdk/src/'),
    );
    expect(unused).toEqual([]);
    // What the app loads of it: the CommonJS entry (the worker bundles the SDK; main imports it for the auto-mode
    // classifier) and the ES module one.
    expect(asarFiles).toContain('/node_modules/@anthropic-ai/sdk/index.js');
    expect(asarFiles).toContain('/node_modules/@anthropic-ai/sdk/index.mjs');
  });

  it('ships no renderer-only package a second time (the renderer bundle has them) and no unused sandbox runtime', () => {
    const shipped = topLevelModules();
    const devOnly = Object.keys(pkg.devDependencies).filter((d) => shipped.has(d));
    expect(devOnly).toEqual([]);
    for (const name of [
      'react',
      'react-dom',
      'zustand',
      '@xterm/xterm',
      'react-markdown',
      '@anthropic-ai/sandbox-runtime',
    ]) {
      expect(shipped.has(name), name).toBe(false);
    }
  });

  it('writes the generic update feed into the app (app-update.yml), which the app reads: placeholder = off, updates.url wins', async () => {
    const resources = path.join(unpacked, 'resources');
    const written = YAML.parse(fs.readFileSync(path.join(resources, 'app-update.yml'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(written).toMatchObject({ provider: 'generic', url: 'https://updates.gatehouse.example.invalid/' });
    const configDir = path.join(outDir, 'user-config');
    fs.mkdirSync(configDir, { recursive: true });
    expect(await resolveUpdateFeed({ configDir, resourcesDir: resources, platform: 'linux' })).toEqual({
      off: expect.stringMatching(/No update server is set/),
    });
    fs.writeFileSync(path.join(configDir, 'settings.yaml'), 'updates:\n  url: https://updates.example.org/gatehouse\n');
    expect(await resolveUpdateFeed({ configDir, resourcesDir: resources, platform: 'linux' })).toEqual({
      url: 'https://updates.example.org/gatehouse',
    });
  });

  it("unpacks node-pty's addon, and ships tree-sitter-bash's wasm grammar without its native addon's sources or binaries", () => {
    const unpackedModules = path.join(unpacked, 'resources/app.asar.unpacked/node_modules');
    expect(
      fs.existsSync(path.join(unpackedModules, 'node-pty/build/Release/pty.node')) ||
        fs.existsSync(path.join(unpackedModules, 'node-pty/prebuilds')),
    ).toBe(true);
    expect(fs.existsSync(path.join(unpackedModules, 'tree-sitter-bash/tree-sitter-bash.wasm'))).toBe(true);
    expect(fs.existsSync(path.join(unpackedModules, 'web-tree-sitter/web-tree-sitter.wasm'))).toBe(true);
    const native = asarFiles.filter(
      (f) =>
        /^\/node_modules\/tree-sitter-bash\/(src|bindings|prebuilds|binding\.gyp)/.test(f) ||
        f.startsWith('/node_modules/node-addon-api/'),
    );
    expect(native).toEqual([]);
    expect(fs.existsSync(path.join(unpackedModules, 'tree-sitter-bash/prebuilds'))).toBe(false);
  });

  it("node-pty's macOS spawn-helper is executable (0755) in every darwin prebuild the package carries", () => {
    const prebuilds = path.join(unpacked, 'resources/app.asar.unpacked/node_modules/node-pty/prebuilds');
    const darwin = fs.readdirSync(prebuilds).filter((p) => p.startsWith('darwin-'));
    expect(darwin.sort()).toEqual(['darwin-arm64', 'darwin-x64']);
    for (const p of darwin) expect(fs.statSync(path.join(prebuilds, p, 'spawn-helper')).mode & 0o777, p).toBe(0o755);
  });

  it('deb and rpm install /usr/bin/gatehouse, which opens a folder in the installed app', async () => {
    const launcher = path.join(unpacked, 'resources/bin/gatehouse');
    expect(fs.statSync(launcher).mode & 0o777).toBe(0o755);
    // Installs each package's files as its fpm arguments map them (source=destination) under a stand-in root:
    // the packed app at /opt/Gatehouse, the package's own link at /usr/bin/gatehouse.
    for (const t of targets.filter((x): x is Extract<LinuxTargetResult, { kind: 'fpm' }> => x.kind === 'fpm')) {
      const installed = path.join(outDir, `installed-${path.extname(t.package).slice(1)}`);
      const mappings = t.args.filter((a) => /^[^-].*=\//.test(a)).map((a) => a.split('='));
      const place = (dest: string) => {
        const at = path.join(installed, dest);
        fs.mkdirSync(path.dirname(at), { recursive: true });
        return at;
      };
      for (const [from, to] of mappings) {
        // (The desktop entry and icons, written to temporary files for fpm, are gone once the target is done.)
        const source = path.resolve(root, from!);
        const st = fs.lstatSync(source, { throwIfNoEntry: false });
        if (st?.isSymbolicLink()) {
          const target = fs.readlinkSync(source);
          fs.symlinkSync(path.isAbsolute(target) ? path.join(installed, target) : target, place(to!));
        } else if (st?.isDirectory()) {
          fs.symlinkSync(source, place(to!.replace(/\/$/, '')));
        }
      }
      const onPath = path.join(installed, 'usr/bin/gatehouse');
      expect(fs.realpathSync(onPath), t.package).toBe(fs.realpathSync(launcher));
      await expectLauncherOpensFolders(onPath, fs.mkdtempSync(path.join(outDir, 'launch-')));
    }
  });
});
