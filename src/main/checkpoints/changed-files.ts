import fs from 'node:fs';
import path from 'node:path';
import type { SkippedFile } from './checkpoint-index';
import { nulList, runGit, type ShadowGit } from './shadow-git';

/**
 * What differs between a project's files and the shadow index (the files of the last snapshot), found by git in one
 * walk: it compares each entry's stat data with the file (in C, without reading unchanged files) and lists the new
 * files its ignore rules keep. The later checkpoints of a large project then only look at what changed.
 */
export interface Changes {
  /** How many files the snapshot would hold (before the size limit). */
  files: number;
  /** Files to (re)stage: new (not ignored) or changed since the index noted them. */
  update: string[];
  /** Paths to drop from the index: deleted, now a folder, or now behind a symbolic link (never followed). */
  remove: string[];
}

export async function listChanges(repo: ShadowGit, env: Record<string, string>): Promise<Changes> {
  const args = ['ls-files', '-z', '-t', '--cached', '--modified', '--deleted', '--others', '--exclude-standard'];
  const cached = new Set<string>();
  const changed = new Set<string>();
  const others = new Set<string>();
  for (const line of nulList((await runGit(repo, args, { env })).stdout)) {
    const tag = line[0];
    const file = line.slice(2);
    if (tag === '?') others.add(file);
    else if (tag === 'C' || tag === 'R') changed.add(file);
    else cached.add(file);
  }
  // git's own checks follow a symbolic link in the middle of a path (src/app.ts where src is now a link): such a
  // path is gone from the project, whatever is at the link's target.
  const gone = new Set<string>();
  const linked = parentLinkCheck(repo.workTree);
  await eachLimited([...changed], async (file) => {
    if ((await linked(path.dirname(file))) || !(await isFileOrLink(path.join(repo.workTree, file)))) gone.add(file);
  });
  return {
    files: cached.size - gone.size + others.size,
    update: [...[...changed].filter((f) => !gone.has(f)), ...others],
    remove: [...gone],
  };
}

/** Whether a folder of the project (relative) is, or is inside, something that is not a real folder (memoised). */
function parentLinkCheck(root: string): (dir: string) => Promise<boolean> {
  const memo = new Map<string, Promise<boolean>>();
  const check = (dir: string): Promise<boolean> => {
    if (dir === '.' || dir === '') return Promise.resolve(false);
    let known = memo.get(dir);
    if (!known) {
      known = check(path.dirname(dir)).then(
        async (above) =>
          above ||
          fs.promises.lstat(path.join(root, dir)).then(
            (st) => !st.isDirectory(),
            () => true,
          ),
      );
      memo.set(dir, known);
    }
    return known;
  };
  return check;
}

/** A file or a symbolic link: a folder there now (its files are listed as new) or nothing means the entry goes. */
async function isFileOrLink(file: string): Promise<boolean> {
  return fs.promises.lstat(file).then(
    (st) => !st.isDirectory(),
    () => false,
  );
}

/** Runs `fn` on every item, 32 at a time. */
async function eachLimited<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(32, items.length) }, worker));
}

/** The files of `files` (relative to the work tree) over `maxBytes`, lstat'd (a file gone meanwhile is no file). */
export async function largeFiles(root: string, files: readonly string[], maxBytes: number): Promise<SkippedFile[]> {
  const large: SkippedFile[] = [];
  await eachLimited(files, async (file) => {
    const st = await fs.promises.lstat(path.join(root, file)).catch(() => null);
    if (st?.isFile() && st.size > maxBytes)
      large.push({ path: file, reason: `${st.size} bytes: larger than the limit of ${maxBytes}` });
  });
  return large.sort((a, b) => a.path.localeCompare(b.path));
}
