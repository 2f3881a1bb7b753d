import os from 'node:os';
import path from 'node:path';

/**
 * The user cache directory (things that may be deleted at any time, such as compiled code): Linux
 * `$XDG_CACHE_HOME/gatehouse` or `~/.cache/gatehouse`, macOS `~/Library/Caches/Gatehouse`, Windows
 * `%LOCALAPPDATA%\Gatehouse\Cache`.
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || os.homedir();
  switch (process.platform) {
    case 'darwin':
      return path.join(home, 'Library', 'Caches', 'Gatehouse');
    case 'win32':
      return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'Gatehouse', 'Cache');
    default:
      return path.join(
        env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache'),
        'gatehouse',
      );
  }
}
