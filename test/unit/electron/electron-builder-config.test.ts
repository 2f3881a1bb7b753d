import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { APP_ID } from '../../../src/main/shells/electron/app-identity';

const root = path.resolve(__dirname, '../../..');
const configFile = path.join(root, 'build/electron-builder.yml');
const require = createRequire(import.meta.url);
// electron-builder's own validation (its JSON schema, node_modules/app-builder-lib/scheme.json).
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration: (config: unknown, logger: { isEnabled: boolean; add: () => void }) => Promise<void>;
};
const logger = { isEnabled: false, add: () => undefined };

function load(): Record<string, unknown> {
  return YAML.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
}

describe('build/electron-builder.yml', () => {
  it('passes electron-builder 26 schema validation', async () => {
    await expect(validateConfiguration(load(), logger)).resolves.toBeUndefined();
  });

  it('the validation is real: a misspelt fuse is rejected', async () => {
    const config = load();
    config.electronFuses = { ...(config.electronFuses as object), runAsnode: false };
    await expect(validateConfiguration(config, logger)).rejects.toThrow(/configuration/i);
  });

  it('flips the security fuses', () => {
    expect(load().electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('packs the built app into asar for Linux (AppImage, deb, rpm), macOS (dmg, zip) and Windows (nsis)', () => {
    const c = load() as {
      appId: string;
      productName: string;
      asar: boolean;
      files: string[];
      asarUnpack: string[];
      linux: { target: string[] };
      mac: { target: string[] };
      win: { target: string[] };
    };
    expect(c.productName).toBe('Gatehouse');
    expect(c.appId).toMatch(/^[a-z0-9.-]+$/);
    expect(c.asar).toBe(true);
    expect(c.files).toContain('out/**');
    expect(c.asarUnpack.some((p) => p.startsWith('node_modules/node-pty'))).toBe(true);
    expect(c.asarUnpack.some((p) => p.includes('tree-sitter') && p.endsWith('.wasm'))).toBe(true);
    // No node-gyp on packaging machines: node-pty is Node-API (loads in Electron as built), tree-sitter-bash's addon is unused.
    expect((c as unknown as { npmRebuild: boolean }).npmRebuild).toBe(false);
    expect(c.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb', 'rpm']));
    // electron-updater updates a macOS app from the zip only ("ZIP file not provided" without it).
    expect(c.mac.target).toEqual(expect.arrayContaining(['dmg', 'zip']));
    expect(c.win.target).toContain('nsis');
    // The package's main points at the Electron entry the build emits.
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main).toBe('out/main/index.js');
  });

  it('Windows: the AppUserModelId the installer gives the shortcuts (appId) is the one the app sets (APP_ID)', () => {
    const c = load() as { appId: string; nsis: { include: string } };
    expect(c.appId).toBe(APP_ID);
    // electron-builder's installer stamps appId (its APP_ID define) on the shortcuts it makes.
    const installer = fs.readFileSync(
      path.join(root, 'node_modules/app-builder-lib/templates/nsis/include/installer.nsh'),
      'utf8',
    );
    expect(installer).toContain('WinShell::SetLnkAUMI "$newStartMenuLink" "${APP_ID}"');
    const nsisTarget = fs.readFileSync(
      path.join(root, 'node_modules/app-builder-lib/out/targets/nsis/NsisTarget.js'),
      'utf8',
    );
    expect(nsisTarget).toContain('APP_ID: appInfo.id,');
    // The installer include that puts the launcher on PATH exists and defines electron-builder's hooks.
    const include = fs.readFileSync(path.join(root, c.nsis.include), 'utf8');
    expect(include).toContain('-File "$INSTDIR\\resources\\bin\\path.ps1" ${action} "$INSTDIR\\resources\\bin"');
    expect(include).toMatch(/!macro customInstall\s+!insertmacro gatehousePath add\s+!macroend/);
    expect(include).toMatch(
      /!macro customUnInstall\b[^!]*\$\{ifNot\} \$\{isUpdated\}\s+!insertmacro gatehousePath remove/,
    );
  });

  it('ships the gatehouse launcher on every platform, and runs the afterPack hook that exists', () => {
    type Extra = Array<{ from: string; to: string }>;
    const c = load() as {
      afterPack: string;
      linux: { extraResources: Extra };
      mac: { extraResources: Extra };
      win: { extraResources: Extra };
      deb: { fpm: string[] };
      rpm: { fpm: string[] };
    };
    expect(fs.existsSync(path.join(root, c.afterPack))).toBe(true);
    const shipped = (extra: Extra) => Object.fromEntries(extra.map((e) => [e.to, e.from]));
    expect(shipped(c.linux.extraResources)).toMatchObject({ 'bin/gatehouse': 'build/launcher/gatehouse' });
    expect(shipped(c.mac.extraResources)).toMatchObject({ 'bin/gatehouse': 'build/launcher/gatehouse' });
    expect(shipped(c.win.extraResources)).toMatchObject({
      'bin/gatehouse.cmd': 'build/launcher/gatehouse.cmd',
      'bin/path.ps1': 'build/launcher/path.ps1',
    });
    for (const extra of [c.linux.extraResources, c.mac.extraResources, c.win.extraResources])
      for (const e of extra) expect(fs.existsSync(path.join(root, e.from)), e.from).toBe(true);
    // deb and rpm own /usr/bin/gatehouse: a link to where the launcher is installed (/opt/<productName>/resources).
    for (const fpm of [c.deb.fpm, c.rpm.fpm]) {
      expect(fpm).toEqual(['build/launcher/usr-bin-gatehouse=/usr/bin/gatehouse']);
    }
    expect(fs.readlinkSync(path.join(root, 'build/launcher/usr-bin-gatehouse'))).toBe(
      '/opt/Gatehouse/resources/bin/gatehouse',
    );
  });
});
