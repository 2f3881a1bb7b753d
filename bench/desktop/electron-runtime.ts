import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type ElectronRuntime = { executable: string; reason: null } | { executable: null; reason: string };

/**
 * Finds the Electron runtime without triggering its download: `require('electron')` would try to fetch it
 * (electron 45's index.js downloads a missing binary), so read the package's path.txt and dist/ directly. On
 * Linux a display is needed too (`xvfb-run` provides one: .ci/run uses it). Without a runtime the reason starts
 * with "no runtime", which the real-Electron test prints as "skipped: no runtime: …".
 */
export function findElectronRuntime(env: NodeJS.ProcessEnv = process.env, from: string = __filename): ElectronRuntime {
  const require = createRequire(from);
  let pkgDir: string;
  try {
    pkgDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { executable: null, reason: 'no runtime: the electron package is not installed' };
  }
  const pathFile = path.join(pkgDir, 'path.txt');
  if (!fs.existsSync(pathFile)) {
    return {
      executable: null,
      reason: `no runtime: ${path.relative(process.cwd(), pathFile)} is missing (Electron's binary was never downloaded: \`node node_modules/electron/install.js\`)`,
    };
  }
  const relative = fs.readFileSync(pathFile, 'utf8').trim();
  const distDir = env.ELECTRON_OVERRIDE_DIST_PATH || path.join(pkgDir, 'dist');
  const executable = path.join(distDir, relative);
  try {
    fs.accessSync(executable, fs.constants.X_OK);
  } catch {
    return { executable: null, reason: `no runtime: ${executable} is missing or not executable` };
  }
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { executable: null, reason: 'no display for Electron (set DISPLAY or run under xvfb-run)' };
  }
  return { executable, reason: null };
}

/** Playwright's Electron loader, which it adds itself only when it locates Electron on its own. */
export function playwrightElectronLoader(from: string = __filename): string | null {
  try {
    const dir = path.dirname(createRequire(from).resolve('playwright-core/package.json'));
    const loader = path.join(dir, 'lib/server/electron/loader.js');
    return fs.existsSync(loader) ? loader : null;
  } catch {
    return null;
  }
}
