import fs from 'node:fs';
import path from 'node:path';
import { withStateLock } from '../fs/state-lock';
import { AuditLog } from '../permission/audit-log';
import { isMissing } from '../fs/read-regular-file';
import { checkpointPaths, readIndex } from './checkpoint-index';

/** A project's checkpoints as a whole: what they take on disk, and deleting all of them (Settings). */
export interface CheckpointUsage {
  /** Bytes of every file under the project's checkpoint folder (shadow repository and index). */
  bytes: number;
  /** Checkpoints in the index; null when it cannot be read (`problem`). */
  checkpoints: number | null;
  folder: string;
  problem: string | null;
}

/** Sizes of the regular files under `dir`, walked with lstat (links are never followed); a missing folder is 0. */
async function folderBytes(dir: string): Promise<number> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return 0;
    throw err;
  }
  let total = 0;
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(full);
    else if (e.isFile())
      total += await fs.promises.lstat(full).then(
        (s) => s.size,
        () => 0,
      );
  }
  return total;
}

export async function checkpointUsage(configDir: string, projectRoot: string): Promise<CheckpointUsage> {
  const paths = checkpointPaths(configDir, projectRoot);
  const [bytes, index] = await Promise.all([
    folderBytes(paths.dir),
    readIndex(paths.indexFile, projectRoot).then(
      (i) => ({ count: i.entries.length, problem: null }),
      (err: unknown) => ({ count: null, problem: (err as Error).message }),
    ),
  ]);
  return { bytes, checkpoints: index.count, folder: paths.dir, problem: index.problem };
}

/**
 * Deletes every checkpoint of the project: its shadow repository, its rules and its index, under the index's lock (a
 * checkpoint being taken finishes first). A broken index goes too: the person asked for all of it to go. Returns how
 * many checkpoints the index listed (null: it could not be read). The project's own files are never touched.
 */
export async function deleteProjectCheckpoints(configDir: string, projectRoot: string): Promise<number | null> {
  const paths = checkpointPaths(configDir, projectRoot);
  const deleted = await withStateLock(paths.indexFile, async () => {
    const count = await readIndex(paths.indexFile, projectRoot).then(
      (i) => i.entries.length,
      () => null,
    );
    await fs.promises.rm(paths.gitDir, { recursive: true, force: true });
    // The views and exclude texts the checkpoints named, and the empty folder views are judged in.
    for (const dir of ['rules', 'empty'])
      await fs.promises.rm(path.join(paths.dir, dir), { recursive: true, force: true });
    await fs.promises.rm(paths.indexFile, { force: true });
    return count;
  });
  // The folder itself, once the lock is released (left in place if someone took a checkpoint meanwhile).
  await fs.promises.rmdir(paths.dir).catch(() => undefined);
  // Undo history is gone for good: the audit log says when, like every restore.
  const audit = new AuditLog({ configDir });
  audit.recordCheckpointsDeleted({ project: projectRoot, deleted });
  await audit.flush();
  return deleted;
}
