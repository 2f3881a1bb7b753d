import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isMissing, readRegularFile } from '../fs/read-regular-file';

/**
 * The project's `.git/info/exclude`: ignore rules that live outside the work tree, so never in a checkpoint's files.
 * Checkpoints note its text at every moment they note the files, and a rewind treats it like one more file (shown
 * under this name): put back when the agent changed it, kept when someone else did.
 *
 * Only a `.git` that is a folder of the project counts (as git reads it for the project); a `.git` file (a linked
 * worktree, a submodule) or link names another repository's folder, which a rewind never writes. A rule file that
 * is a symbolic link is never followed: it counts as no file (its rules are not applied, so more is kept in
 * checkpoints, never less), and a restore replaces the link itself, never its target.
 */
export const INFO_EXCLUDE = '.git/info/exclude';

const MAX_EXCLUDE_BYTES = 4 * 1024 * 1024;

async function isRealDir(dir: string): Promise<boolean> {
  return fs.promises.lstat(dir).then(
    (st) => st.isDirectory(),
    () => false,
  );
}

/** Whether the project's `.git` is a folder of its own now (only then is the file noted and restored). */
export function hasGitFolder(projectRoot: string): Promise<boolean> {
  return isRealDir(path.join(projectRoot, '.git'));
}

/** Its text now, or null: no `.git` folder, no such file, or not a regular file. */
export async function readInfoExclude(projectRoot: string): Promise<string | null> {
  const gitDir = path.join(projectRoot, '.git');
  if (!(await isRealDir(gitDir)) || !(await isRealDir(path.join(gitDir, 'info')))) return null;
  const file = path.join(projectRoot, INFO_EXCLUDE);
  try {
    if (!(await fs.promises.lstat(file)).isFile()) return null;
    return await readRegularFile(file, { maxBytes: MAX_EXCLUDE_BYTES, what: 'ignore rule files' });
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

/**
 * Puts it back as `text` (null: removes it). Written only inside the project's own `.git` folder: a `.git` or
 * `.git/info` that is a link or not a folder is refused with the reason. A new file is renamed over the old one, so
 * a link there is replaced, never written through.
 */
export async function writeInfoExclude(projectRoot: string, text: string | null): Promise<void> {
  const gitDir = path.join(projectRoot, '.git');
  const infoDir = path.join(gitDir, 'info');
  if (!(await isRealDir(gitDir)))
    throw new Error(`${gitDir}: not a folder of the project (a link or a file), so ${INFO_EXCLUDE} is not restored`);
  const file = path.join(projectRoot, INFO_EXCLUDE);
  if (text === null) {
    const st = await fs.promises.lstat(file).catch(() => null);
    if (st && !st.isDirectory()) await fs.promises.rm(file, { force: true });
    return;
  }
  const infoSt = await fs.promises.lstat(infoDir).catch((err: unknown) => {
    if (isMissing(err)) return null;
    throw err;
  });
  if (infoSt === null) await fs.promises.mkdir(infoDir, { mode: 0o755 });
  else if (!infoSt.isDirectory())
    throw new Error(`${infoDir}: not a folder (a link or a file), so ${INFO_EXCLUDE} is not restored`);
  const temp = path.join(infoDir, `.exclude.gatehouse-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await fs.promises.writeFile(temp, text, { flag: 'wx', mode: 0o644 });
    await fs.promises.rename(temp, file);
  } finally {
    await fs.promises.rm(temp, { force: true });
  }
}
