import { createRequire } from 'node:module';
import { LINUX_PACKAGE_NAME } from './app-identity';
import { detectLinuxInstall } from './linux-install';
import type { LinuxInstallSources } from './linux-install';
import type { LoadedUpdater } from './updates';

/**
 * electron-updater's updater for this copy of the app, required on first use (not at start-up). Required, not
 * imported: the package is CommonJS and defines `autoUpdater` as a lazy getter, which `import()` does not expose
 * as a named export. On Linux the updater is picked here (see detectLinuxInstall) rather than by electron-updater,
 * which trusts a `package-type` file a deb, an rpm and an AppImage can all carry with the wrong value.
 */
export async function loadElectronUpdater(
  linux: LinuxInstallSources | null = process.platform === 'linux'
    ? { env: process.env, resourcesDir: process.resourcesPath, packageName: LINUX_PACKAGE_NAME }
    : null,
): Promise<LoadedUpdater> {
  const updater = createRequire(__filename)('electron-updater') as typeof import('electron-updater');
  switch (linux ? await detectLinuxInstall(linux) : null) {
    case 'appimage':
      return { updater: new updater.AppImageUpdater(), packageManager: null };
    case 'deb':
      return { updater: new updater.DebUpdater(), packageManager: 'deb' };
    case 'rpm':
      return { updater: new updater.RpmUpdater(), packageManager: 'rpm' };
    case 'pacman':
      return { updater: new updater.PacmanUpdater(), packageManager: 'pacman' };
    default:
      return { updater: updater.autoUpdater, packageManager: null };
  }
}
