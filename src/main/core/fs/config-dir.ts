import os from 'node:os';
import path from 'node:path';

/**
 * The user config directory: `GATEHOUSE_HOME` when set, else the OS's config folder for the app
 * (Linux `$XDG_CONFIG_HOME/gatehouse` or `~/.config/gatehouse`, macOS `~/Library/Application Support/Gatehouse`,
 * Windows `%APPDATA%\Gatehouse`).
 */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.GATEHOUSE_HOME;
  if (override && override.trim()) return path.resolve(override);
  const home = env.HOME || os.homedir();
  switch (process.platform) {
    case 'darwin':
      return path.join(home, 'Library', 'Application Support', 'Gatehouse');
    case 'win32':
      return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'Gatehouse');
    default:
      return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'gatehouse');
  }
}

/** The user's home directory, honouring HOME (tests and the corpus set it). */
export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME || os.homedir();
}
