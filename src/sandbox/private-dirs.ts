/**
 * The sandboxes' own folders in the system's temp folder (a command's private /tmp, the proxy's socket folder). A
 * worker removes them when it stops (`teardown`); one that was killed (SIGKILL, a crash of the machine, the out-of-
 * memory killer) cannot, so each folder's name carries the pid of the process that made it, and the next sandbox
 * created removes the folders of processes that no longer run. Only this user's real folders (no symlink) whose names
 * match exactly are touched; a pid that runs (or runs as another user) keeps its folders. (A process in
 * another PID namespace that shares this temp folder, such as another container's, would look gone: the system's temp
 * folder is not shared that way on the platforms Gatehouse runs on. Folders named by older versions, without a pid,
 * are left alone: whether their process still runs cannot be told.)
 */
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { processRuns } from '../shared/node/process-runs';

export type PrivateDirKind = 'tmp' | 'net';

const NAME = /^gatehouse-sandbox-(?:tmp|net)-(\d+)-[A-Za-z0-9]{6}$/;

/** A new folder `gatehouse-sandbox-<kind>-<pid>-XXXXXX` in `base` (the system's temp folder by default). */
export function makePrivateDir(kind: PrivateDirKind, base = os.tmpdir()): Promise<string> {
  return fsp.mkdtemp(path.join(base, `gatehouse-sandbox-${kind}-${process.pid}-`));
}

/**
 * Removes the sandbox folders in `base` left by processes that no longer run; returns the paths removed. Never
 * throws: a folder that cannot be read or removed stays.
 */
export async function removeOrphanedPrivateDirs(
  base = os.tmpdir(),
  runs: (pid: number) => boolean = processRuns,
): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(base);
  } catch {
    return [];
  }
  const uid = process.getuid?.();
  const removed: string[] = [];
  for (const name of names) {
    const match = NAME.exec(name);
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || runs(pid)) continue;
    const dir = path.join(base, name);
    try {
      const st = await fsp.lstat(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      await fsp.rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

let sweep: Promise<string[]> | null = null;

/** Starts `removeOrphanedPrivateDirs` the first time it is called in this process; later calls return the same run. */
export function removeOrphanedPrivateDirsOnce(): Promise<string[]> {
  sweep ??= removeOrphanedPrivateDirs();
  return sweep;
}
