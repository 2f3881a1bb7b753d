import { createRequire } from 'node:module';
import type { UpdaterLike } from './updates';

/**
 * electron-updater's `autoUpdater`, required on first use (not at start-up). Required, not imported: the package
 * is CommonJS and defines `autoUpdater` as a lazy getter, which `import()` does not expose as a named export.
 */
export function loadElectronUpdater(): UpdaterLike {
  return (createRequire(__filename)('electron-updater') as typeof import('electron-updater')).autoUpdater;
}
