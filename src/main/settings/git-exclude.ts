import fs from 'node:fs';
import path from 'node:path';
import { isMissing, MAX_SETTINGS_BYTES, readRegularFileSync } from '../fs/read-regular-file';
import { relativeEscapes } from '../../shared/node/path-containment';

/** A small git file (`.git`, `commondir`, `info/exclude`): regular files only, never hanging on a FIFO. */
function readSmall(file: string): string {
  return readRegularFileSync(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'git metadata files' });
}

/** The git directory of the repository containing `dir` (walking up), and the repository's work tree root. */
function findGitDir(dir: string): { gitDir: string; workTree: string } | null {
  let current = dir;
  for (;;) {
    const dotGit = path.join(current, '.git');
    let st: fs.Stats | null;
    try {
      st = fs.statSync(dotGit);
    } catch {
      st = null;
    }
    if (st?.isDirectory()) return { gitDir: dotGit, workTree: current };
    if (st?.isFile()) {
      try {
        const m = /^gitdir:\s*(.+)$/m.exec(readSmall(dotGit));
        if (m) {
          const gitDir = path.resolve(current, m[1]!.trim());
          const common = path.join(gitDir, 'commondir');
          const commonDir = fs.existsSync(common) ? path.resolve(gitDir, readSmall(common).trim()) : gitDir;
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
 * project is in a git repository and the line is not there yet. Returns true when a line was added.
 */
export function ensureGitExcluded(projectRoot: string, file: string): boolean {
  const repo = findGitDir(projectRoot);
  if (!repo) return false;
  const rel = path.relative(repo.workTree, file).split(path.sep).join('/');
  if (relativeEscapes(rel)) return false;
  const line = `/${rel}`;
  const exclude = path.join(repo.gitDir, 'info', 'exclude');
  let text: string;
  try {
    text = readSmall(exclude);
  } catch (err) {
    // A FIFO, a device or a huge file (a hostile repository) is left alone: nothing is appended to it.
    if (!isMissing(err)) return false;
    text = '';
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines.includes(line) || lines.includes(rel)) return false;
  fs.mkdirSync(path.dirname(exclude), { recursive: true });
  fs.appendFileSync(exclude, `${text.length > 0 && !text.endsWith('\n') ? '\n' : ''}${line}\n`);
  return true;
}
