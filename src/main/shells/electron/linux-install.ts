import fs from 'node:fs';
import path from 'node:path';

/** How a Linux copy of the app was installed, as far as updating it goes. */
export type LinuxInstall = 'appimage' | 'deb' | 'rpm' | 'pacman';

export interface LinuxInstallSources {
  env: NodeJS.ProcessEnv;
  /** The packaged app's resources folder (process.resourcesPath). */
  resourcesDir: string;
  /** The package's name (package.json's `name`, which electron-builder gives the deb and the rpm). */
  packageName: string;
  /** dpkg's database of installed packages' files. */
  dpkgInfoDir?: string;
}

const PACKAGE_TYPES = new Set(['deb', 'rpm', 'pacman']);

/**
 * What electron-updater must treat this copy as, read without blocking:
 * - `appimage` when it runs from an AppImage (its runtime sets APPIMAGE);
 * - else the package format in `<resources>/package-type`, which electron-builder writes for deb and rpm. It writes
 *   it into the one folder every Linux target is made from, so a deb can carry "rpm" and an rpm "deb" (and an
 *   AppImage either, hence APPIMAGE first): dpkg's own record of the package settles deb against rpm;
 * - null when none applies (an unpacked folder run as it is): electron-updater's own choice stands.
 */
export async function detectLinuxInstall(s: LinuxInstallSources): Promise<LinuxInstall | null> {
  if (s.env.APPIMAGE) return 'appimage';
  let type: string;
  try {
    type = (await fs.promises.readFile(path.join(s.resourcesDir, 'package-type'), 'utf8')).trim();
  } catch {
    return null;
  }
  if (!PACKAGE_TYPES.has(type)) return null;
  if (type === 'pacman') return 'pacman';
  const dpkgRecord = path.join(s.dpkgInfoDir ?? '/var/lib/dpkg/info', `${s.packageName}.list`);
  return (await fs.promises.access(dpkgRecord).then(
    () => true,
    () => false,
  ))
    ? 'deb'
    : 'rpm';
}
