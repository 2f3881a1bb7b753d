import fs from 'node:fs';
import path from 'node:path';
import { isMissing } from '../fs/read-regular-file';
import type { SkippedFile } from './checkpoint-index';
import { nulList, runGit, type ShadowGit } from './shadow-git';

export interface SnapshotLimits {
  maxFileBytes: number;
  maxFiles: number;
}

export type Snapshot =
  { ok: true; tree: string; files: number; skipped: SkippedFile[] } | { ok: false; reason: string };

/** Left out of every checkpoint besides what the project's .gitignore files say. */
const BASE_EXCLUDES = ['.git', '.DS_Store'];

/**
 * Creates the shadow repository when missing, and writes its exclude file: the base excludes and the project's own
 * `.git/info/exclude` (so what the project keeps out of git stays out of checkpoints too).
 */
export async function prepareRepo(repo: ShadowGit): Promise<void> {
  if (!(await exists(path.join(repo.gitDir, 'HEAD')))) {
    await fs.promises.mkdir(repo.gitDir, { recursive: true, mode: 0o700 });
    await runGit(repo, ['init', '-q']);
  }
  let projectExclude = '';
  try {
    const text = await fs.promises.readFile(path.join(repo.workTree, '.git', 'info', 'exclude'), 'utf8');
    projectExclude = text.slice(0, 256 * 1024);
  } catch {
    // no repository, or no exclude file
  }
  await fs.promises.mkdir(path.join(repo.gitDir, 'info'), { recursive: true });
  await fs.promises.writeFile(
    path.join(repo.gitDir, 'info', 'exclude'),
    [...BASE_EXCLUDES, "# the project's .git/info/exclude:", projectExclude].join('\n') + '\n',
  );
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.lstat(file);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

/** Sizes of `files` (relative to the work tree), lstat'd a few at a time; a file gone meanwhile is skipped. */
async function largeFiles(root: string, files: readonly string[], maxBytes: number): Promise<SkippedFile[]> {
  const large: SkippedFile[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++]!;
      try {
        const st = await fs.promises.lstat(path.join(root, file));
        if (st.isFile() && st.size > maxBytes)
          large.push({ path: file, reason: `${st.size} bytes: larger than the limit of ${maxBytes}` });
      } catch {
        // gone since git listed it: git add sees that too
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return large.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Stages the project's files as they are now into `indexFile` (the repository's own index when undefined) and returns
 * their tree: every file git would track under the project's ignore rules, except files larger than the limit (listed
 * as skipped). More files than `maxFiles`: no snapshot, with the count.
 */
export async function snapshotTree(repo: ShadowGit, limits: SnapshotLimits, indexFile?: string): Promise<Snapshot> {
  const env: Record<string, string> = indexFile ? { GIT_INDEX_FILE: indexFile } : {};
  const listed = await runGit(repo, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { env });
  const files = [...new Set(nulList(listed.stdout))];
  if (files.length > limits.maxFiles)
    return {
      ok: false,
      reason: `the project has ${files.length} files that are not ignored: more than the checkpoint limit of ${limits.maxFiles}`,
    };
  const skipped = await largeFiles(repo.workTree, files, limits.maxFileBytes);
  // Large files are never read (an exclude pathspec each); one that grew past the limit also leaves the index, or
  // the checkpoint would keep an older version of it.
  await runGit(repo, ['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], {
    env,
    input: ['.', ...skipped.map((s) => `:(exclude,literal)${s.path}`)].join('\0'),
  });
  if (skipped.length > 0)
    await runGit(repo, ['rm', '-q', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      env: { ...env, GIT_LITERAL_PATHSPECS: '1' },
      input: skipped.map((s) => s.path).join('\0'),
    });
  const tree = (await runGit(repo, ['write-tree'], { env })).stdout.trim();
  return { ok: true, tree, files: files.length - skipped.length, skipped };
}
