import fs from 'node:fs';
import path from 'node:path';
import { Arch, build, Platform } from 'electron-builder';
import type { Configuration } from 'electron-builder';
import YAML from 'yaml';

export const root = path.resolve(__dirname, '../../../..');

type Config = Configuration & { linux: { target: string[] }; afterPack: string };

/** build/electron-builder.yml as electron-builder reads it. */
export function loadBuilderConfig(): Config {
  return YAML.parse(fs.readFileSync(path.join(root, 'build/electron-builder.yml'), 'utf8')) as Config;
}

/**
 * The stand-in for Electron's executable. It writes the arguments it was started with, one a line, to the file
 * GATEHOUSE_STANDIN_ARGS names (when set; whole, by a rename), so a test sees what a launcher started.
 */
const STANDIN_EXECUTABLE = [
  '#!/bin/sh',
  'if [ -n "${GATEHOUSE_STANDIN_ARGS:-}" ]; then',
  '  for a; do printf "%s\\n" "$a"; done > "$GATEHOUSE_STANDIN_ARGS.tmp"',
  '  mv "$GATEHOUSE_STANDIN_ARGS.tmp" "$GATEHOUSE_STANDIN_ARGS"',
  'fi',
  '',
].join('\n');

/**
 * The project's config, changed only where packaging here needs it: output in `outDir`, and a stand-in
 * Electron distribution given as `electronDist`, so nothing is downloaded. The fuses are left out (flipping them
 * needs the real binary; build/electron-builder.yml's are checked by the config test). The afterPack hook is given
 * by its absolute path (the config's is relative to the project folder, and some tests pack another folder).
 */
function offlineConfig(outDir: string, electronDist: string): Config {
  const electronVersion = (
    JSON.parse(fs.readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
  ).version;
  const { electronFuses: _fuses, ...config } = loadBuilderConfig();
  return {
    ...config,
    afterPack: path.join(root, String(config.afterPack)),
    directories: { ...config.directories, output: path.join(outDir, 'dist') },
    electronDist,
    electronVersion,
  };
}

/** A stand-in Linux Electron distribution: the executable (`electron`) and its resources folder. */
function linuxStandIn(outDir: string): string {
  const dist = path.join(outDir, 'fake-electron-dist');
  fs.mkdirSync(path.join(dist, 'resources'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'electron'), STANDIN_EXECUTABLE, { mode: 0o755 });
  return dist;
}

/**
 * A stand-in macOS Electron distribution: Electron.app with the Info.plist files electron-builder rewrites, the
 * executable, one helper app, and (in `outDir`) an icon already in .icns form, which spares the icon converter
 * (downloaded on first use).
 */
function macStandIn(outDir: string): { dist: string; icon: string } {
  const dist = path.join(outDir, 'fake-electron-mac');
  const plist = (id: string, executable: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict><key>CFBundleIdentifier</key><string>${id}</string><key>CFBundleExecutable</key><string>${executable}</string><key>CFBundleName</key><string>${executable}</string></dict></plist>\n`;
  const bundle = (contents: string, id: string, executable: string) => {
    fs.mkdirSync(path.join(contents, 'MacOS'), { recursive: true });
    fs.mkdirSync(path.join(contents, 'Resources'), { recursive: true });
    fs.writeFileSync(path.join(contents, 'Info.plist'), plist(id, executable));
    fs.writeFileSync(path.join(contents, 'MacOS', executable), STANDIN_EXECUTABLE, { mode: 0o755 });
  };
  const contents = path.join(dist, 'Electron.app/Contents');
  bundle(contents, 'com.github.Electron', 'Electron');
  bundle(
    path.join(contents, 'Frameworks/Electron Helper.app/Contents'),
    'com.github.Electron.helper',
    'Electron Helper',
  );
  const icon = path.join(outDir, 'stand-in.icns');
  fs.writeFileSync(icon, Buffer.from([0x69, 0x63, 0x6e, 0x73, 0, 0, 0, 8])); // "icns", length 8: no images
  return { dist, icon };
}

/**
 * Packs the built app for Linux x64 (`dir` target) with electron-builder itself: the real file selection, asar,
 * asarUnpack, extraResources, the afterPack hook and dependency collection. Returns the unpacked app folder
 * (linux-unpacked).
 */
export async function packLinuxDir(outDir: string): Promise<string> {
  const config = offlineConfig(outDir, linuxStandIn(outDir));
  await build({ projectDir: root, targets: Platform.LINUX.createTarget(['dir'], Arch.x64), config, publish: 'never' });
  return path.join(outDir, 'dist', 'linux-unpacked');
}

/**
 * Packs the built app for macOS arm64 (`dir` target) the same way, on this machine: electron-builder makes
 * Gatehouse.app from a stand-in Electron.app (signing is skipped off macOS). Returns the path of Gatehouse.app.
 */
export async function packMacDir(outDir: string): Promise<string> {
  const { dist, icon } = macStandIn(outDir);
  const base = offlineConfig(outDir, dist);
  const config = { ...base, mac: { ...base.mac, icon } };
  await build({ projectDir: root, targets: Platform.MAC.createTarget(['dir'], Arch.arm64), config, publish: 'never' });
  return path.join(outDir, 'dist', 'mac-arm64', 'Gatehouse.app');
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
  const base = offlineConfig(outDir, linuxStandIn(outDir));
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
