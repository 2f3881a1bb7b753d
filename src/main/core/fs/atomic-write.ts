import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processRuns } from '../../../shared/node/process-runs';
import { userConfigDir } from './config-dir';

/**
 * Writes a state file atomically: a temp file, fsync, then rename over the target, so a crash leaves either the old
 * file or the new one, never half of either.
 *
 * The temp file lives outside the target's folder when it can (a project's `.gatehouse/` must not collect `.tmp`
 * files when a process is killed mid-write): in the user's Gatehouse folder (`<config>/tmp`), else in a private
 * folder of the OS temp dir, whichever is on the same file system as the target (rename cannot cross file systems).
 * Only where neither is, the temp file goes next to the target, named with this process's id, and such files left by
 * processes that no longer run are removed by the next write there.
 */

const TEMP_SUFFIX = '.gatehouse-tmp';

function tempName(file: string): string {
  return `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
}

function uid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

function tempCandidates(): string[] {
  return [path.join(userConfigDir(), 'tmp'), path.join(os.tmpdir(), `gatehouse-${uid() ?? 'user'}`)];
}

/** A folder only this user can write (no one else can plant or read a temp file there). */
function isPrivateDir(st: fs.Stats): boolean {
  const me = uid();
  return st.isDirectory() && (me === null || (st.uid === me && (st.mode & 0o077) === 0));
}

/** The temp files of ours for `file` in `dir` whose writer is gone (killed mid-write). */
function deadTemps(dir: string, file: string, names: string[]): string[] {
  const prefix = `.${path.basename(file)}.`;
  return names
    .filter((name) => name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX))
    .filter((name) => {
      const pid = Number(name.slice(prefix.length).split('.')[0]);
      return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processRuns(pid);
    })
    .map((name) => path.join(dir, name));
}

/** Where the temp file for `file` goes: a folder on the target's file system, outside the target's folder if possible. */
async function tempPath(file: string, besideTarget = false): Promise<string> {
  const dir = path.dirname(file);
  if (!besideTarget) {
    try {
      const dev = (await fs.promises.stat(dir)).dev;
      for (const candidate of tempCandidates()) {
        if (path.resolve(candidate) === path.resolve(dir)) continue;
        try {
          await fs.promises.mkdir(candidate, { recursive: true, mode: 0o700 });
          const st = await fs.promises.lstat(candidate);
          if (isPrivateDir(st) && st.dev === dev) return path.join(candidate, tempName(file));
        } catch {
          // not usable: the next candidate
        }
      }
    } catch {
      // the target folder cannot be stat'ed: the write below reports it
    }
  }
  try {
    for (const dead of deadTemps(dir, file, await fs.promises.readdir(dir)))
      await fs.promises.rm(dead, { force: true });
  } catch {
    // nothing to sweep
  }
  return path.join(dir, tempName(file));
}

/** rename(2) cannot cross mount points even on one device (bind mounts): then the temp file goes beside the target. */
function crossDevice(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'EXDEV';
}

async function writeViaAsync(tmp: string, file: string, data: string, mode: number): Promise<void> {
  const handle = await fs.promises.open(tmp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}

/** Writes `data` to `file` atomically (temp file, fsync, rename), without blocking the thread. */
export async function writeFileAtomicAsync(file: string, data: string, mode = 0o600): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  try {
    await writeViaAsync(await tempPath(file), file, data, mode);
  } catch (err) {
    if (!crossDevice(err)) throw err;
    await writeViaAsync(await tempPath(file, true), file, data, mode);
  }
}
