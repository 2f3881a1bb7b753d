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
  /** Paths to drop from the index: deleted, now a folder, now behind a symbolic link (never followed), or now ignored. */
  remove: string[];
  /** Folders with a .git of their own (repositories inside the project): never in a checkpoint. */
  nested: string[];
}

/** Why a folder is not in a checkpoint (shown in `skipped`). */
export const NESTED_REPOSITORY_REASON =
  'a git repository of its own (the folder has its own .git): its files are not in checkpoints and a rewind leaves it as it is';

/**
 * `viewFile`: the ignore rules to walk by (one exclude file, see gitignore-translate.ts); no `.gitignore` of the work
 * tree is read.
 */
export async function listChanges(repo: ShadowGit, env: Record<string, string>, viewFile: string): Promise<Changes> {
  const rules = `--exclude-from=${viewFile}`;
  // -s: index entries as `TAG MODE OBJECT STAGE<TAB>PATH` (the mode tells a repository's entry); new files as `? PATH`.
  const args = ['ls-files', '-z', '-t', '-s', '--cached', '--modified', '--deleted', '--others', rules];
  const cached = new Set<string>();
  const changed = new Set<string>();
  const others = new Set<string>();
  const nested = new Set<string>();
  // The index's files that the view keeps out (another view's snapshot staged them): they leave the index, as if the
  // snapshot were taken from nothing.
  const [listing, ignoredNow] = await Promise.all([
    runGit(repo, args, { env }),
    runGit(repo, ['ls-files', '-z', '--cached', '--ignored', rules], { env }),
  ]);
  const gone = new Set<string>(nulList(ignoredNow.stdout));
  for (const line of nulList(listing.stdout)) {
    const tag = line[0];
    if (tag === '?') {
      const file = line.slice(2);
      // git lists a folder holding a repository of its own as one `folder/`, never its files.
      if (file.endsWith('/')) nested.add(file.slice(0, -1));
      else others.add(file);
      continue;
    }
    const file = line.slice(line.indexOf('\t') + 1);
    if (line.slice(2, 8) === '160000') {
      // A repository's entry (an older checkpoint's): it leaves the index, and is listed as left out while there.
      gone.add(file);
      if (await isFolder(path.join(repo.workTree, file))) nested.add(file);
    }
    if (tag === 'C' || tag === 'R') changed.add(file);
    else cached.add(file);
  }
  // git's own checks follow a symbolic link in the middle of a path (src/app.ts where src is now a link): such a
  // path is gone from the project, whatever is at the link's target.
  const linked = parentLinkCheck(repo.workTree);
  await eachLimited([...changed], async (file) => {
    if ((await linked(path.dirname(file))) || !(await isFileOrLink(path.join(repo.workTree, file)))) gone.add(file);
  });
  return {
    files: cached.size - gone.size + others.size,
    update: [...[...changed].filter((f) => !gone.has(f)), ...others],
    remove: [...gone],
    nested: [...nested].sort(),
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

async function isFolder(file: string): Promise<boolean> {
  return fs.promises.lstat(file).then(
    (st) => st.isDirectory(),
    () => false,
  );
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
