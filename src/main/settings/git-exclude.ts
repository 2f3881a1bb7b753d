import fs from 'node:fs';
import path from 'node:path';
import { relEscapes } from '../paths';

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
      const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
      if (m) {
        const gitDir = path.resolve(current, m[1]!.trim());
        const common = path.join(gitDir, 'commondir');
        const commonDir = fs.existsSync(common) ? path.resolve(gitDir, fs.readFileSync(common, 'utf8').trim()) : gitDir;
        return { gitDir: commonDir, workTree: current };
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
  if (relEscapes(rel)) return false;
  const line = `/${rel}`;
  const exclude = path.join(repo.gitDir, 'info', 'exclude');
  let text: string;
  try {
    text = fs.readFileSync(exclude, 'utf8');
  } catch {
    text = '';
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines.includes(line) || lines.includes(rel)) return false;
  fs.mkdirSync(path.dirname(exclude), { recursive: true });
  fs.appendFileSync(exclude, `${text.length > 0 && !text.endsWith('\n') ? '\n' : ''}${line}\n`);
  return true;
}
