// electron-builder's afterPack hook (build/electron-builder.yml): runs on every packed app, before any target
// (dmg, zip, deb, nsis...) is made from it and before macOS signing.
// - node-pty's macOS spawn-helper gets its execute bit in app.asar.unpacked (see spawn-helper.mjs): a package
//   made from node_modules installed without it (scripts skipped, another machine) would run no command on
//   macOS. A macOS app without the spawn-helper of its architecture fails the build.
// - The `gatehouse` launcher in resources/bin is made executable (extraResources keeps the mode it finds, and a
//   checkout on Windows has none).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { makeExecutable, makeSpawnHelpersExecutable } from './spawn-helper.mjs';

const { Arch } = createRequire(import.meta.url)('electron-builder');

/** The node-pty prebuild folders a macOS app of `arch` loads (a universal app holds both). */
function darwinPrebuilds(arch) {
  return arch === 'universal' ? ['darwin-x64', 'darwin-arm64'] : [`darwin-${arch}`];
}

/** @param {import('electron-builder').AfterPackContext} context */
export default async function afterPack(context) {
  const resources = context.packager.getResourcesDir(context.appOutDir);
  const nodePty = path.join(resources, 'app.asar.unpacked', 'node_modules', 'node-pty');
  const helpers = makeSpawnHelpersExecutable(nodePty);
  if (context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas') {
    const built = path.join(nodePty, 'build', 'Release', 'spawn-helper');
    const missing = darwinPrebuilds(Arch[context.arch])
      .map((dir) => path.join(nodePty, 'prebuilds', dir, 'spawn-helper'))
      .filter((file) => !helpers.some((h) => h.file === file));
    if (missing.length > 0 && !helpers.some((h) => h.file === built))
      throw new Error(
        `node-pty's spawn-helper is missing from the packed app (${missing.join(', ')}): every command would fail on macOS`,
      );
  }
  const launcher = path.join(resources, 'bin', 'gatehouse');
  if (fs.existsSync(launcher)) makeExecutable(launcher);
  const changed = helpers.filter((h) => h.changed).length;
  console.log(`  • afterPack  spawn-helper executable (${helpers.length} found, ${changed} fixed)`);
}
