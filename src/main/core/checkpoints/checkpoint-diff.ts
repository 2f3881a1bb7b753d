import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ChangedFile, CheckpointDiff } from '../../../shared/checkpoint-contract';
import type { CheckpointEntry, CheckpointIndex, SkippedFile } from './checkpoint-index';
import type { CheckpointSettings } from './checkpoint-settings';
import { currentView, ignoredBy } from './ignore-rules';
import { hasGitFolder, INFO_EXCLUDE, readInfoExclude } from './info-exclude';
import { momentsSince, outsideChanges } from './outside-changes';
import type { RulesStore } from './rules-store';
import { nulList, runGit, type ShadowGit } from './shadow-git';
import { snapshotTree } from './snapshot';

/**
 * What restoring a checkpoint would change, judged by the checkpoint's own view (its ignore rules when it was
 * taken): a file it covered is compared, and restored, whatever today's rules say (an agent that adds `src/` to
 * `.gitignore` hides nothing from a rewind), and a file its rules ignored stays out of reach even if today's rules
 * no longer ignore it (a `node_modules/` or `.env` un-ignored since is never deleted or rewritten). The project's
 * `.git/info/exclude` is compared too, like one more file.
 */

const MAX_PATCH_BYTES = 512 * 1024;

export interface CheckpointContext {
  repo: ShadowGit;
  rules: RulesStore;
  /** An empty folder: the work tree of `git check-ignore` when a view is judged alone. */
  emptyDir: string;
  settings: () => Promise<CheckpointSettings>;
}

/** The files as seen through a view at one moment, and `.git/info/exclude` then (a hash; null: none). */
export interface Observed {
  tree: string;
  exclude: string | null;
  skipped: SkippedFile[];
}

export interface ViewRef {
  hash: string;
  file: string;
  /** Today's rules stand in for the view of a checkpoint taken before views were kept. */
  legacy: boolean;
}

/** The project's files now through the view in `viewFile`, staged in `indexFile` (the repository's own when unset). */
export async function observe(
  ctx: CheckpointContext,
  viewFile: string,
  indexFile?: string,
): Promise<Observed | { error: string }> {
  const [snap, text] = await Promise.all([
    snapshotTree(ctx.repo, await ctx.settings(), viewFile, indexFile),
    readInfoExclude(ctx.repo.workTree),
  ]);
  if (!snap.ok) return { error: snap.reason };
  return { tree: snap.tree, exclude: text === null ? null : await ctx.rules.put(text), skipped: snap.skipped };
}

/** A checkpoint's view, checked against its name (today's rules for a checkpoint older than views). */
export async function viewOf(ctx: CheckpointContext, entry: CheckpointEntry): Promise<ViewRef> {
  if (entry.view) return { hash: entry.view, file: await ctx.rules.verifiedFile(entry.view), legacy: false };
  const now = await currentView(ctx.repo, ctx.rules);
  return { hash: now.hash, file: now.file, legacy: true };
}

function judgeBy(ctx: CheckpointContext): (hash: string, paths: readonly string[]) => Promise<Set<string>> {
  return async (hash, paths) => ignoredBy(ctx.repo, ctx.emptyDir, await ctx.rules.verifiedFile(hash), paths);
}

/** `.git/info/exclude`'s change as a restore would make it, as a unified diff (from now back to the checkpoint). */
async function excludePatch(ctx: CheckpointContext, now: string | null, then: string | null): Promise<string> {
  const [a, b] = await Promise.all([now, then].map((h) => (h === null ? '' : ctx.rules.read(h))));
  const body = createTwoFilesPatch(
    now === null ? '/dev/null' : `a/${INFO_EXCLUDE}`,
    then === null ? '/dev/null' : `b/${INFO_EXCLUDE}`,
    a!,
    b!,
  );
  const mode = now === null ? 'new file mode 100644\n' : then === null ? 'deleted file mode 100644\n' : '';
  return `diff --git a/${INFO_EXCLUDE} b/${INFO_EXCLUDE}\n${mode}${body.slice(body.indexOf('\n') + 1)}`;
}

/** What restoring `entry` would change now, the view it was judged by, and the files now through that view. */
export async function diffCheckpoint(
  ctx: CheckpointContext,
  index: CheckpointIndex,
  entry: CheckpointEntry,
): Promise<{ diff: CheckpointDiff; view: ViewRef }> {
  const view = await viewOf(ctx, entry);
  // The present, in a scratch index (the repository's own index is the stat cache of the last snapshot).
  const scratch = path.join(os.tmpdir(), `gatehouse-ckpt-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await fs.promises.copyFile(path.join(ctx.repo.gitDir, 'index'), scratch).catch(() => undefined);
    const now = await observe(ctx, view.file, scratch);
    if ('error' in now) throw new Error(`the project's files cannot be compared: ${now.error}`);
    const status = nulList(
      (await runGit(ctx.repo, ['diff-tree', '-r', '-z', '--no-renames', '--name-status', now.tree, entry.commit!]))
        .stdout,
    );
    let files: Array<Omit<ChangedFile, 'external'>> = [];
    for (let i = 0; i + 1 < status.length; i += 2) {
      const code = status[i]!;
      files.push({ path: status[i + 1]!, action: code === 'A' ? 'recreate' : code === 'D' ? 'delete' : 'restore' });
    }
    // A checkpoint older than views: a file it holds that today's rules ignore stays as it is (the old behaviour).
    const dropped = view.legacy
      ? await judgeBy(ctx)(
          view.hash,
          files.filter((f) => f.action === 'recreate').map((f) => f.path),
        )
      : new Set<string>();
    files = files.filter((f) => !dropped.has(f.path));
    const paths = files.map((f) => f.path);
    // `.git/info/exclude` as one more file, where there is a `.git` folder to put it back into (a `.git` swapped
    // for a link or a file names another repository, never written by a rewind).
    const excludeChanged =
      entry.exclude !== undefined && entry.exclude !== now.exclude && (await hasGitFolder(ctx.repo.workTree));
    if (excludeChanged)
      files.push({
        path: INFO_EXCLUDE,
        action: entry.exclude === null ? 'delete' : now.exclude === null ? 'recreate' : 'restore',
      });
    const moments = momentsSince(index.entries, entry, now);
    const external = await outsideChanges(
      { repo: ctx.repo, ignoredBy: judgeBy(ctx) },
      index.entries,
      entry,
      moments,
      paths,
    );
    let patch = withoutSections(
      (await runGit(ctx.repo, ['diff', '--no-color', '--no-ext-diff', now.tree, entry.commit!])).stdout,
      dropped,
    );
    if (excludeChanged) patch += await excludePatch(ctx, now.exclude, entry.exclude ?? null);
    const patchTruncated = Buffer.byteLength(patch) > MAX_PATCH_BYTES;
    return {
      view,
      diff: {
        entry,
        files: files.map((f) => ({ ...f, external: external.has(f.path) })),
        patch: patchTruncated ? patch.slice(0, MAX_PATCH_BYTES) : patch,
        patchTruncated,
      },
    };
  } finally {
    await fs.promises.rm(scratch, { force: true });
  }
}

/** A `git diff` without the sections of `paths`. */
function withoutSections(patch: string, paths: ReadonlySet<string>): string {
  if (paths.size === 0) return patch;
  return patch
    .split(/^(?=diff --git )/m)
    .filter((section) => {
      const header = section.slice(0, section.indexOf('\n'));
      return ![...paths].some((p) => header === `diff --git a/${p} b/${p}`);
    })
    .join('');
}
