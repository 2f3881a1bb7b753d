import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChangedFile, CheckpointDiff, RestoreResult } from '../../shared/checkpoint-contract';
import { GatehouseError } from '../../shared/errors';
import { withStateLock } from '../fs/state-lock';
import {
  checkpointPaths,
  readIndex,
  writeIndex,
  type CheckpointEntry,
  type CheckpointIndex,
  type ProjectCheckpointPaths,
} from './checkpoint-index';
import { readCheckpointSettings, type CheckpointSettings } from './checkpoint-settings';
import { nulList, runGit, writeCheckpointRef, type ShadowGit } from './shadow-git';
import { forgetWrittenTrees, prepareRepo, snapshotTree } from './snapshot';

/**
 * A project's checkpoints: before each prompt that may change files, the project's files as they are (honouring its
 * .gitignore files, without files over the size limit) are kept in a shadow git repository under the user's config
 * folder; when the run ends, the state it left is noted, so that later changes by someone else can be told apart.
 * Restoring one puts the files back as they were, after taking a checkpoint of the present, so a restore can be
 * undone too. Every operation on a project's checkpoints holds its cross-process lock (the app and the CLI at once).
 */
export type { ChangedFile, CheckpointDiff, RestoreResult };

const MAX_PATCH_BYTES = 512 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

export class CheckpointStore {
  readonly paths: ProjectCheckpointPaths;
  private readonly repo: ShadowGit;

  constructor(
    private readonly configDir: string,
    readonly projectRoot: string,
  ) {
    this.paths = checkpointPaths(configDir, projectRoot);
    this.repo = { gitDir: this.paths.gitDir, workTree: projectRoot };
  }

  settings(): Promise<CheckpointSettings> {
    return readCheckpointSettings(this.configDir);
  }

  /** Every checkpoint of the project, newest first. */
  async list(): Promise<CheckpointEntry[]> {
    return [...(await readIndex(this.paths.indexFile, this.projectRoot)).entries].reverse();
  }

  /**
   * Takes a checkpoint of the files as they are now. Never throws for what the files are (too many, git missing):
   * the entry then says why it holds nothing (`error`).
   */
  create(info: {
    sessionId: string;
    runId: string;
    prompt: string;
    kind?: CheckpointEntry['kind'];
  }): Promise<CheckpointEntry> {
    return this.locked(async (index) => {
      const settings = await this.settings();
      const entry: CheckpointEntry = {
        id: randomBytes(6).toString('hex'),
        sessionId: info.sessionId,
        runId: info.runId,
        prompt: info.prompt.replace(/\s+/g, ' ').trim().slice(0, 200),
        createdAt: new Date().toISOString(),
        kind: info.kind ?? 'turn',
        skipped: [],
      };
      try {
        await prepareRepo(this.repo);
        const snap = await snapshotTree(this.repo, settings);
        if (!snap.ok) entry.error = snap.reason;
        else {
          const message = `checkpoint ${entry.id} (session ${entry.sessionId}, run ${entry.runId})`;
          entry.commit = (await runGit(this.repo, ['commit-tree', snap.tree, '-m', message])).stdout.trim();
          await writeCheckpointRef(this.repo, entry.id, entry.commit);
          entry.skipped = snap.skipped;
        }
      } catch (err) {
        entry.error = (err as Error).message;
      }
      index.entries.push(entry);
      await this.prune(index, settings.retentionDays);
      return entry;
    });
  }

  /** Notes the files as the run of `id` left them (after the run ends, whatever its outcome). */
  recordAfter(id: string): Promise<void> {
    return this.locked(async (index) => {
      const entry = index.entries.find((e) => e.id === id);
      if (!entry?.commit) return;
      const snap = await snapshotTree(this.repo, await this.settings());
      if (snap.ok) entry.afterTree = snap.tree;
    });
  }

  /** What restoring `id` would change, file by file, and which of those changes were not the agent's. */
  diff(id: string): Promise<CheckpointDiff> {
    return this.locked(async (index) => this.diffIn(index, id), false);
  }

  /**
   * Puts the files back as they were at checkpoint `id`: contents restored, files deleted since recreated, files new
   * since deleted. A file changed outside the agent since its last run is kept unless `overwriteExternal`. A
   * checkpoint of the present is taken first (`undo`), so the restore itself can be undone.
   */
  restore(id: string, options: { overwriteExternal: boolean; sessionId: string }): Promise<RestoreResult> {
    return this.locked(async (index) => {
      const diff = await this.diffIn(index, id);
      const commit = diff.entry.commit!;
      const restored = diff.files.filter((f) => options.overwriteExternal || !f.external);
      const kept = diff.files.filter((f) => !restored.includes(f));
      let undo: CheckpointEntry | null = null;
      if (restored.length > 0) {
        const settings = await this.settings();
        const snap = await snapshotTree(this.repo, settings);
        if (!snap.ok) throw new Error(`no checkpoint of the present could be taken first: ${snap.reason}`);
        const message = `before restoring ${diff.entry.id}`;
        const undoCommit = (await runGit(this.repo, ['commit-tree', snap.tree, '-m', message])).stdout.trim();
        undo = {
          id: randomBytes(6).toString('hex'),
          commit: undoCommit,
          sessionId: options.sessionId,
          runId: '',
          prompt: `before restoring ${diff.entry.id}`,
          createdAt: new Date().toISOString(),
          kind: 'before-restore',
          skipped: snap.skipped,
          afterTree: snap.tree,
        };
        await writeCheckpointRef(this.repo, undo.id, undoCommit);
        index.entries.push(undo);
      }
      // Deletions first: a path that is now a symbolic link where the checkpoint had a folder goes before git writes
      // the folder's files (git lists links as links and never a path through one, so nothing outside is touched).
      for (const f of restored.filter((r) => r.action === 'delete'))
        await fs.promises.rm(path.join(this.projectRoot, f.path), { force: true });
      const write = restored.filter((f) => f.action !== 'delete').map((f) => f.path);
      if (write.length > 0)
        await runGit(this.repo, ['checkout', commit, '--pathspec-from-file=-', '--pathspec-file-nul'], {
          env: { GIT_LITERAL_PATHSPECS: '1' },
          input: write.join('\0'),
        });
      // The restored state is what the agent's files are now: later changes are someone else's again.
      if (undo) {
        const after = await snapshotTree(this.repo, await this.settings());
        if (after.ok) undo.afterTree = after.tree;
      }
      return { restored, kept, undo };
    });
  }

  private async diffIn(index: CheckpointIndex, id: string): Promise<CheckpointDiff> {
    const matches = index.entries.filter((e) => e.id.startsWith(id));
    if (id.length < 4 || matches.length !== 1)
      throw matches.length > 1
        ? new GatehouseError(
            'BAD_REQUEST',
            `${JSON.stringify(id)} names ${matches.length} checkpoints: give more of the id`,
          )
        : new GatehouseError('NOT_FOUND', `no checkpoint ${JSON.stringify(id)} in ${this.projectRoot}`);
    const entry = matches[0]!;
    if (!entry.commit)
      throw new GatehouseError('BAD_REQUEST', `checkpoint ${entry.id} holds no files: ${entry.error ?? 'not taken'}`);
    await prepareRepo(this.repo);
    // The present, in a scratch index (the repository's own index is the stat cache of the last checkpoint).
    const scratch = path.join(os.tmpdir(), `gatehouse-ckpt-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await fs.promises.copyFile(path.join(this.paths.gitDir, 'index'), scratch).catch(() => undefined);
      const now = await snapshotTree(this.repo, await this.settings(), scratch);
      if (!now.ok) throw new Error(`the project's files cannot be compared: ${now.reason}`);
      const status = nulList(
        (await runGit(this.repo, ['diff-tree', '-r', '-z', '--no-renames', '--name-status', now.tree, entry.commit]))
          .stdout,
      );
      const external = await this.externalChanges(index, entry, now.tree);
      const files: ChangedFile[] = [];
      for (let i = 0; i + 1 < status.length; i += 2) {
        const code = status[i]!;
        const file = status[i + 1]!;
        const action = code === 'A' ? 'recreate' : code === 'D' ? 'delete' : 'restore';
        // Without a record of how the agent left the files, every change counts as someone else's (fail safe).
        files.push({ path: file, action, external: external.has(file) });
      }
      // A file the checkpoint holds that the project ignores now (a folder added to .gitignore since) is out of the
      // checkpoints' reach, like node_modules: a restore leaves it as it is.
      const ignored = await ignoredNow(
        this.repo,
        files.filter((f) => f.action === 'recreate').map((f) => f.path),
      );
      const patchText = withoutSections(
        (await runGit(this.repo, ['diff', '--no-color', '--no-ext-diff', now.tree, entry.commit])).stdout,
        ignored,
      );
      const patchTruncated = Buffer.byteLength(patchText) > MAX_PATCH_BYTES;
      return {
        entry,
        files: files.filter((f) => !ignored.has(f.path)),
        patch: patchTruncated ? patchText.slice(0, MAX_PATCH_BYTES) : patchText,
        patchTruncated,
      };
    } finally {
      await fs.promises.rm(scratch, { force: true });
    }
  }

  /**
   * The files changed since `from` by someone other than the agent: between the end of each run (its `afterTree`) and
   * the next checkpoint, and since the last run ended. Where a run's end was not recorded (it crashed), every change
   * of that stretch counts as someone else's: fail safe, a person confirms more rather than losing work.
   */
  private async externalChanges(index: CheckpointIndex, from: CheckpointEntry, nowTree: string): Promise<Set<string>> {
    const chain = index.entries.slice(index.entries.indexOf(from)).filter((e) => e.commit);
    const changed = new Set<string>();
    const add = async (a: string, b: string): Promise<void> => {
      const out = await runGit(this.repo, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', a, b]);
      for (const f of nulList(out.stdout)) changed.add(f);
    };
    for (let i = 0; i < chain.length; i++) {
      const e = chain[i]!;
      const next = chain[i + 1]?.commit ?? nowTree;
      await add(e.afterTree ?? e.commit!, next);
    }
    return changed;
  }

  /** Checkpoints older than the retention period go, with the files only they kept. */
  private async prune(index: CheckpointIndex, retentionDays: number): Promise<void> {
    const cutoff = Date.now() - retentionDays * DAY_MS;
    const old = index.entries.filter((e) => Date.parse(e.createdAt) < cutoff);
    if (old.length === 0) return;
    index.entries = index.entries.filter((e) => !old.includes(e));
    for (const e of old)
      if (e.commit) await runGit(this.repo, ['update-ref', '-d', `refs/checkpoints/${e.id}`]).catch(() => undefined);
    await runGit(this.repo, ['reflog', 'expire', '--expire=now', '--all']).catch(() => undefined);
    await runGit(this.repo, ['gc', '-q', '--prune=now']).catch(() => undefined);
    forgetWrittenTrees(this.repo);
  }

  /** Deletes every checkpoint of a session (when the session is deleted). */
  deleteSession(sessionId: string): Promise<number> {
    return this.locked(async (index) => {
      const settingsDays = (await this.settings()).retentionDays;
      const gone = index.entries.filter((e) => e.sessionId === sessionId);
      for (const e of gone) e.createdAt = new Date(0).toISOString();
      await this.prune(index, settingsDays);
      return gone.length;
    });
  }

  private locked<T>(fn: (index: CheckpointIndex) => Promise<T>, write = true): Promise<T> {
    return withStateLock(this.paths.indexFile, async () => {
      const index = await readIndex(this.paths.indexFile, this.projectRoot);
      const result = await fn(index);
      if (write) await writeIndex(this.paths.indexFile, index);
      return result;
    });
  }
}

/** Which of `paths` (relative) the project's ignore rules keep out now. */
async function ignoredNow(repo: ShadowGit, paths: readonly string[]): Promise<Set<string>> {
  // git refuses a path behind a symbolic link (a folder swapped for one): such a path is the restore's to write.
  const plain: string[] = [];
  for (const p of paths) if (!(await behindLink(repo.workTree, path.dirname(p)))) plain.push(p);
  if (plain.length === 0) return new Set();
  const out = await runGit(repo, ['check-ignore', '-z', '--no-index', '--stdin'], {
    input: plain.join('\0'),
    okCodes: [1], // none of them is ignored
  });
  return new Set(nulList(out.stdout));
}

/** Whether a folder of the project (relative) is, or is inside, something that exists and is not a folder. */
async function behindLink(root: string, dir: string): Promise<boolean> {
  for (let d = dir; d !== '.' && d !== ''; d = path.dirname(d)) {
    const st = await fs.promises.lstat(path.join(root, d)).catch(() => null);
    if (st && !st.isDirectory()) return true;
  }
  return false;
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

/** Deletes a deleted session's checkpoints in every project (each project's index names the project). */
export async function deleteSessionCheckpoints(configDir: string, sessionId: string): Promise<number> {
  const root = path.join(configDir, 'checkpoints');
  let dirs: string[];
  try {
    dirs = await fs.promises.readdir(root);
  } catch {
    return 0;
  }
  let deleted = 0;
  for (const dir of dirs) {
    let project: string;
    try {
      project = (await readIndex(path.join(root, dir, 'index.json'), '')).project;
    } catch {
      continue; // a broken index is left for a person to see (`gatehouse checkpoints list` names it)
    }
    const store = new CheckpointStore(configDir, project);
    if (store.paths.dir !== path.join(root, dir)) continue; // an index copied from elsewhere: not ours to act on
    deleted += await store.deleteSession(sessionId);
  }
  return deleted;
}
