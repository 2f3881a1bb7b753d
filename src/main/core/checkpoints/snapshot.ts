import fs from 'node:fs';
import path from 'node:path';
import { isMissing } from '../fs/read-regular-file';
import { largeFiles, listChanges, NESTED_REPOSITORY_REASON } from './changed-files';
import type { SkippedFile } from './checkpoint-index';
import { BASE_EXCLUDES } from './ignore-rules';
import { runGit, type ShadowGit } from './shadow-git';

export interface SnapshotLimits {
  maxFileBytes: number;
  maxFiles: number;
}

export type Snapshot =
  | { ok: true; tree: string; files: number; skipped: SkippedFile[] }
  | { ok: false; reason: string };

/**
 * Creates the shadow repository when missing, and writes its exclude file: the base excludes only. Every walk of the
 * project names its rules (a checkpoint's view) itself; `git check-ignore`, which always reads this file, then sees
 * the base excludes that every view holds anyway.
 */
export async function prepareRepo(repo: ShadowGit): Promise<void> {
  if (!(await exists(path.join(repo.gitDir, 'HEAD')))) {
    await fs.promises.mkdir(repo.gitDir, { recursive: true, mode: 0o700 });
    await runGit(repo, ['init', '-q']);
  }
  const file = path.join(repo.gitDir, 'info', 'exclude');
  const text = BASE_EXCLUDES.join('\n') + '\n';
  const now = await fs.promises.readFile(file, 'utf8').catch(() => null);
  if (now !== text) {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(file, text);
  }
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

/**
 * Stages the project's files as they are now into `indexFile` (the repository's own index when undefined) and returns
 * their tree: every file the view in `viewFile` does not ignore (a checkpoint's rules, not necessarily today's), except
 * files larger than the limit and folders that are repositories of their own (both listed as skipped). More files than `maxFiles`: no snapshot, with the count. Only what differs from the index is looked at
 * and staged: the index keeps the last snapshot's files (never a large one: those are new, and checked, every time).
 * `git update-index` takes the paths one by one, exactly as named (no pattern matching, no ignore rules: the list
 * is already git's), storing a symbolic link as a link.
 */
export async function snapshotTree(
  repo: ShadowGit,
  limits: SnapshotLimits,
  viewFile: string,
  indexFile?: string,
): Promise<Snapshot> {
  const env: Record<string, string> = indexFile ? { GIT_INDEX_FILE: indexFile } : {};
  const { files, update, remove, nested } = await listChanges(repo, env, viewFile);
  if (files > limits.maxFiles)
    return {
      ok: false,
      reason: `the project has ${files} files that are not ignored: more than the checkpoint limit of ${limits.maxFiles} (checkpoints.maxFiles: Settings › Checkpoints, or ignore folders in .gitignore)`,
    };
  const tooLarge = await largeFiles(repo.workTree, update, limits.maxFileBytes);
  const large = new Set(tooLarge.map((s) => s.path));
  const skipped = [...tooLarge, ...nested.map((p) => ({ path: p, reason: NESTED_REPOSITORY_REASON }))].sort((a, b) =>
    a.path.localeCompare(b.path),
  );
  // Large files are never read; one that grew past the limit also leaves the index, or the checkpoint would keep an
  // older version of it.
  const drop = [...remove, ...large];
  if (drop.length > 0)
    await runGit(repo, ['update-index', '--force-remove', '-z', '--stdin'], { env, input: drop.join('\0') });
  const stage = update.filter((f) => !large.has(f));
  if (stage.length > 0)
    await runGit(repo, ['update-index', '--add', '--remove', '-z', '--stdin'], { env, input: stage.join('\0') });
  const tree = await writeTree(repo, env, indexFile === undefined ? path.join(repo.gitDir, 'index') : null);
  return { ok: true, tree, files: files - tooLarge.length, skipped };
}

/**
 * The tree this process last wrote from a repository's own index, with the index file's identity then. Every change
 * of that index (ours or another process's: git writes a new file and renames it over) changes the identity, and an
 * index that did not change gives the same tree: a checkpoint with nothing changed since the last snapshot (the end of
 * a run that changed no file, the next prompt) reuses it instead of starting `git write-tree` again. Every change of
 * a shadow index happens while its checkpoint index's state lock is held, so nothing changes it between a write-tree
 * and the look at its identity that follows.
 */
const writtenTrees = new Map<string, { identity: string; tree: string }>();

async function indexIdentity(file: string): Promise<string | null> {
  try {
    const st = await fs.promises.stat(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

/** `git write-tree` of the index, or, when `ownIndex` (the repository's own index) is unchanged, its last tree. */
async function writeTree(repo: ShadowGit, env: Record<string, string>, ownIndex: string | null): Promise<string> {
  if (ownIndex) {
    const known = writtenTrees.get(ownIndex);
    if (known && known.identity === (await indexIdentity(ownIndex))) return known.tree;
  }
  const tree = (await runGit(repo, ['write-tree'], { env })).stdout.trim();
  if (ownIndex) {
    const identity = await indexIdentity(ownIndex);
    if (identity) writtenTrees.set(ownIndex, { identity, tree });
  }
  return tree;
}

/** Forgets the trees written from `repo`'s index (after a prune, which may delete objects no checkpoint keeps). */
export function forgetWrittenTrees(repo: ShadowGit): void {
  writtenTrees.delete(path.join(repo.gitDir, 'index'));
}
