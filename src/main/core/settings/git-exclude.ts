import fs from 'node:fs';
import path from 'node:path';
import { isMissing, MAX_SETTINGS_BYTES, readRegularFile } from '../fs/read-regular-file';
import { relativeEscapes } from '../../../shared/node/path-containment';

/** A small git file (`.git`, `commondir`, `info/exclude`): regular files only, never hanging on a FIFO. */
function readSmall(file: string): Promise<string> {
  return readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'git metadata files' });
}

/** The git directory of the repository containing `dir` (walking up), and the repository's work tree root. */
async function findGitDir(dir: string): Promise<{ gitDir: string; workTree: string } | null> {
  let current = dir;
  for (;;) {
    const dotGit = path.join(current, '.git');
    const st = await fs.promises.stat(dotGit).catch(() => null);
    if (st?.isDirectory()) return { gitDir: dotGit, workTree: current };
    if (st?.isFile()) {
      try {
        const m = /^gitdir:\s*(.+)$/m.exec(await readSmall(dotGit));
        if (m) {
          const gitDir = path.resolve(current, m[1]!.trim());
          let commonDir = gitDir;
          try {
            commonDir = path.resolve(gitDir, (await readSmall(path.join(gitDir, 'commondir'))).trim());
          } catch (err) {
            if (!isMissing(err)) throw err;
          }
          return { gitDir: commonDir, workTree: current };
        }
      } catch {
        return null; // an unreadable `.git` file: no repository to keep the file out of
      }
    }
    const parent = path.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/**
 * Keeps a project file out of git without editing any tracked file: appends it to `.git/info/exclude` when the
 * project is in a git repository and the line is not there yet. Resolves true when a line was added.
 */
export async function ensureGitExcluded(projectRoot: string, file: string): Promise<boolean> {
  const repo = await findGitDir(projectRoot);
  if (!repo) return false;
  const rel = path.relative(repo.workTree, file).split(path.sep).join('/');
  if (relativeEscapes(rel)) return false;
  const line = `/${rel}`;
  const exclude = path.join(repo.gitDir, 'info', 'exclude');
  let text: string;
  try {
    text = await readSmall(exclude);
  } catch (err) {
    // A FIFO, a device or a huge file (a hostile repository) is left alone: nothing is appended to it.
    if (!isMissing(err)) return false;
    text = '';
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines.includes(line) || lines.includes(rel)) return false;
  await fs.promises.mkdir(path.dirname(exclude), { recursive: true });
  await fs.promises.appendFile(exclude, `${text.length > 0 && !text.endsWith('\n') ? '\n' : ''}${line}\n`);
  return true;
}
