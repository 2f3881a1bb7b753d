import fs from 'node:fs';
import path from 'node:path';
import { Arch, build, Platform } from 'electron-builder';
import type { Configuration } from 'electron-builder';
import YAML from 'yaml';

export const root = path.resolve(__dirname, '../../../..');

type Config = Configuration & { linux: { target: string[] } };

/** build/electron-builder.yml as electron-builder reads it. */
export function loadBuilderConfig(): Config {
  return YAML.parse(fs.readFileSync(path.join(root, 'build/electron-builder.yml'), 'utf8')) as Config;
}

/**
 * The project's config, changed only where packaging here needs it: output in `outDir`, and a stand-in
 * Electron distribution (a script named `electron`) given as `electronDist`, so nothing is downloaded. The fuses
 * are left out (flipping them needs the real binary; build/electron-builder.yml's are checked by the config test).
 */
function offlineConfig(outDir: string): Config {
  const fakeDist = path.join(outDir, 'fake-electron-dist');
  fs.mkdirSync(path.join(fakeDist, 'resources'), { recursive: true });
  fs.writeFileSync(path.join(fakeDist, 'electron'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const electronVersion = (
    JSON.parse(fs.readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
  ).version;
  const { electronFuses: _fuses, ...config } = loadBuilderConfig();
  return {
    ...config,
    directories: { ...config.directories, output: path.join(outDir, 'dist') },
    electronDist: fakeDist,
    electronVersion,
  };
}

/**
 * Packs the built app for Linux x64 (`dir` target) with electron-builder itself: the real file selection, asar,
 * asarUnpack and dependency collection. Returns the unpacked app folder (linux-unpacked).
 */
export async function packLinuxDir(outDir: string): Promise<string> {
  const config = offlineConfig(outDir);
  await build({ projectDir: root, targets: Platform.LINUX.createTarget(['dir'], Arch.x64), config, publish: 'never' });
  return path.join(outDir, 'dist', 'linux-unpacked');
}

/** What one Linux target computed before its external tool would run. */
export type LinuxTargetResult =
  | { kind: 'fpm'; package: string; args: string[]; desktopEntry: string }
  | { kind: 'AppImage'; desktopEntry: string; desktopFileName: string };

/**
 * Runs every Linux target of the config (AppImage, deb...) on an already packed app with electron-builder's own
 * target code (metadata checks, desktop entry, fpm arguments), stopping each just before its external tool (fpm,
 * appimagetool, both downloaded on first use) would run. `projectDir` (default: this project) is where
 * package.json is read: a packed app needs nothing else from it.
 */
export async function computeLinuxTargets(
  outDir: string,
  unpacked: string,
  projectDir = root,
): Promise<LinuxTargetResult[]> {
  const base = offlineConfig(outDir);
  const config = { ...base, directories: { ...base.directories, buildResources: path.join(root, 'build') } };
  const computed: LinuxTargetResult[] = [];
  await build({
    projectDir,
    targets: Platform.LINUX.createTarget(config.linux.target, Arch.x64),
    config,
    publish: 'never',
    prepackaged: unpacked,
    effectiveOptionComputed: async (options: unknown) => {
      if (Array.isArray(options)) {
        // FpmTarget: [fpm arguments, path of the .desktop file it wrote]
        const [args, desktopFile] = options as [string[], string];
        const pkg = args[args.indexOf('--package') + 1] ?? '';
        computed.push({ kind: 'fpm', package: pkg, args, desktopEntry: fs.readFileSync(desktopFile, 'utf8') });
      } else {
        const { desktop, desktopFileName } = options as { desktop: string; desktopFileName: string };
        computed.push({ kind: 'AppImage', desktopEntry: desktop, desktopFileName });
      }
      return true;
    },
  });
  return computed;
}
