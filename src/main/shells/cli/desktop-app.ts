import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// Where `gatehouse open` finds the installed desktop app, and how it starts it: detached, with the folder as its one
// argument, so that a running app's single-instance lock hands the folder over (second-instance) and this process
// can exit at once.

/** The packages' install locations (build/electron-builder.yml: productName Gatehouse, Linux executable gatehouse-desktop). */
export function desktopAppLocations(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') {
    const inApp = (apps: string) => path.posix.join(apps, 'Gatehouse.app', 'Contents', 'MacOS', 'Gatehouse');
    return [inApp('/Applications'), ...(env.HOME ? [inApp(path.posix.join(env.HOME, 'Applications'))] : [])];
  }
  if (platform === 'win32') {
    const exe = (dir: string) => path.win32.join(dir, 'Gatehouse', 'Gatehouse.exe');
    return [
      // The installer's default: per user, no administrator needed.
      ...(env.LOCALAPPDATA ? [exe(path.win32.join(env.LOCALAPPDATA, 'Programs'))] : []),
      ...(env.ProgramFiles ? [exe(env.ProgramFiles)] : []),
    ];
  }
  // The deb and rpm packages (/usr/bin/gatehouse-desktop links to the app under /opt).
  return ['/usr/bin/gatehouse-desktop', '/opt/Gatehouse/gatehouse-desktop'];
}

export type DesktopApp = { file: string } | { none: string[] } | { error: string };

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The desktop app to start: GATEHOUSE_DESKTOP when set (an absolute path to its executable, or on macOS to its
 * `.app`; one that is not there is an error, never a silent fallback), else the first install location that has it,
 * else the locations looked at.
 */
export function findDesktopApp(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): DesktopApp {
  const named = env.GATEHOUSE_DESKTOP;
  if (named) {
    const absolute = platform === 'win32' ? path.win32.isAbsolute(named) : path.posix.isAbsolute(named);
    if (!absolute) return { error: `GATEHOUSE_DESKTOP must be an absolute path to the desktop app, not "${named}"` };
    const file =
      platform === 'darwin' && /\.app\/?$/i.test(named)
        ? path.posix.join(named, 'Contents', 'MacOS', 'Gatehouse')
        : named;
    return isExecutableFile(file, platform)
      ? { file }
      : { error: `GATEHOUSE_DESKTOP is ${named}, but ${file} is not an executable file` };
  }
  const locations = desktopAppLocations(env, platform);
  const found = locations.find((file) => isExecutableFile(file, platform));
  return found ? { file: found } : { none: locations };
}

/**
 * Starts `file` with `args`, detached from this process (its own session, no terminal, output discarded): resolves
 * once it has started, rejects with the reason when it cannot be.
 */
export function startDetached(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  // A variable that would turn an Electron binary into a plain Node.js is not passed on.
  const childEnv = { ...env };
  delete childEnv.ELECTRON_RUN_AS_NODE;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { detached: true, stdio: 'ignore', env: childEnv });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
