/** The per-user folders of Gatehouse's own files that are not state: the cache folder and the helper's folder. */

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

/**
 * Where the CLI's decision helper keeps its socket and its secret (`<runtime dir>/gatehouse-<uid>/`, the runtime dir
 * being $XDG_RUNTIME_DIR or the temp folder): the CLI makes and uses the folder (src/main/shells/cli/decision-helper-socket.ts),
 * the command sandbox hides it (socket-doors.ts, seatbelt-sandbox.ts), so both name it by this one rule. Node builtins
 * only: the `gatehouse` entry loads it for every call (beside the cache folder's rule: the CLI and the worker both
 * start with this module, so it shares their first chunk rather than adding one).
 */

export function helperFolderName(uid: number): string {
  return `gatehouse-${uid}`;
}

/**
 * Every folder a helper of this user may use, whichever environment its clients have: under each runtime folder
 * named, and under the temp folder.
 */
export function helperFolderCandidates(runtimeDirs: readonly string[], uid: number, tmpDir = os.tmpdir()): string[] {
  const bases = [...runtimeDirs.filter((d) => path.isAbsolute(d)), tmpDir];
  return [...new Set(bases.map((b) => path.join(path.resolve(b), helperFolderName(uid))))];
}
