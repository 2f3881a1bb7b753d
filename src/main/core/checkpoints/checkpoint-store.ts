import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ChangedFile, CheckpointDiff, RestoreResult } from '../../../shared/checkpoint-contract';
import { GatehouseError } from '../../../shared/errors';
import { withStateLock } from '../fs/state-lock';
import {
  checkpointPaths,
  readIndex,
  writeIndex,
  type CheckpointEntry,
  type CheckpointIndex,
  type ProjectCheckpointPaths,
} from './checkpoint-index';
import { diffCheckpoint, observe, viewOf, type CheckpointContext, type Observed } from './checkpoint-diff';
import { readCheckpointSettings, type CheckpointSettings } from './checkpoint-settings';
import { currentView } from './ignore-rules';
import { INFO_EXCLUDE, writeInfoExclude } from './info-exclude';
import { RulesStore } from './rules-store';
import { nulList, runGit, writeCheckpointRef, type ShadowGit } from './shadow-git';
import { forgetWrittenTrees, prepareRepo } from './snapshot';

/**
 * A project's checkpoints: before each prompt that may change files, the project's files as they are (by its ignore
 * rules then, its view, kept with it; without files over the size limit) are kept in a shadow git repository under
 * the user's config folder. While the run goes, the files are noted around each tool call that may change them, and
 * when it ends, so that changes by someone else (between the calls, after the run) can be told apart. Restoring one
 * puts the files back as they were, by its view, after taking a checkpoint of the present, so a restore can be undone
 * too. Every operation on a project's checkpoints holds its cross-process lock (the app and the CLI at once).
 */
export type { ChangedFile, CheckpointDiff, RestoreResult };

/** The files and `.git/info/exclude` at one noted moment. */
export type NotedState = Pick<Observed, 'tree' | 'exclude'>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Most paths a run notes as changed outside the agent; past it, the whole run counts as outside (fail safe). */
const MAX_OUTSIDE_PATHS = 20_000;

export class CheckpointStore {
  readonly paths: ProjectCheckpointPaths;
  private readonly repo: ShadowGit;
  private readonly rules: RulesStore;
  private readonly ctx: CheckpointContext;

  constructor(
    private readonly configDir: string,
    readonly projectRoot: string,
  ) {
    this.paths = checkpointPaths(configDir, projectRoot);
    this.repo = { gitDir: this.paths.gitDir, workTree: projectRoot };
    this.rules = new RulesStore(path.join(this.paths.dir, 'rules'));
    this.ctx = {
      repo: this.repo,
      rules: this.rules,
      emptyDir: path.join(this.paths.dir, 'empty'),
      settings: () => this.settings(),
    };
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
        const view = await currentView(this.repo, this.rules);
        const snap = await observe(this.ctx, view.file);
        if ('error' in snap) entry.error = snap.error;
        else {
          const message = `checkpoint ${entry.id} (session ${entry.sessionId}, run ${entry.runId})`;
          entry.commit = (await runGit(this.repo, ['commit-tree', snap.tree, '-m', message])).stdout.trim();
          await writeCheckpointRef(this.repo, entry.id, entry.commit);
          entry.skipped = snap.skipped;
          entry.view = view.hash;
          entry.exclude = snap.exclude;
        }
      } catch (err) {
        entry.error = (err as Error).message;
      }
      index.entries.push(entry);
      await this.prune(index, settings.retentionDays);
      return entry;
    });
  }

  /**
   * Notes the files as the run of `id` left them (after the run ends, whatever its outcome), through the checkpoint's
   * view. `since`: the files when the agent last stopped working (its last tool call's end): what changed from there
   * is noted as changed outside the agent. `unknown`: a moment of the run could not be noted.
   */
  recordAfter(id: string, options: { since?: NotedState | null; unknown?: boolean } = {}): Promise<void> {
    return this.locked(async (index) => {
      const entry = index.entries.find((e) => e.id === id);
      if (!entry?.commit) return;
      const now = await observe(this.ctx, (await viewOf(this.ctx, entry)).file);
      if ('error' in now) return;
      if (options.since) await this.noteOutside(entry, options.since, now);
      if (options.unknown) entry.outsideUnknown = true;
      await writeCheckpointRef(this.repo, entry.id, now.tree, 'checkpoint-after');
      entry.afterTree = now.tree;
      entry.afterExclude = now.exclude;
    });
  }

  /**
   * Notes the files at a moment of the run of `id` (a tool call starts or ends), through the checkpoint's view.
   * `since`: the files when the agent last stopped working: what changed from there to now was changed outside the
   * agent, and is noted so.
   */
  noteMoment(id: string, since: NotedState | null): Promise<NotedState> {
    return this.locked(async (index) => {
      const entry = index.entries.find((e) => e.id === id);
      if (!entry?.commit) throw new Error(`checkpoint ${id} holds no files`);
      const now = await observe(this.ctx, (await viewOf(this.ctx, entry)).file);
      if ('error' in now) throw new Error(now.error);
      if (since) await this.noteOutside(entry, since, now);
      return { tree: now.tree, exclude: now.exclude };
    }, 'changed');
  }

  private async noteOutside(entry: CheckpointEntry, from: NotedState, to: NotedState): Promise<void> {
    const changed = new Set(entry.outside ?? []);
    if (from.tree !== to.tree) {
      const out = await runGit(this.repo, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', from.tree, to.tree]);
      for (const f of nulList(out.stdout)) changed.add(f);
    }
    if (from.exclude !== to.exclude) changed.add(INFO_EXCLUDE);
    if (changed.size > MAX_OUTSIDE_PATHS) {
      entry.outsideUnknown = true;
      delete entry.outside;
    } else if (changed.size > 0) entry.outside = [...changed].sort();
  }

  /** What restoring `id` would change, file by file, and which of those changes were not the agent's. */
  diff(id: string): Promise<CheckpointDiff> {
    return this.locked(async (index) => (await this.diffIn(index, id)).diff, false);
  }

  /**
   * Puts the files back as they were at checkpoint `id`, by its view: contents restored, files deleted since
   * recreated, files new since deleted, `.git/info/exclude` put back. A file changed outside the agent since is kept
   * unless `overwriteExternal`. A checkpoint of the present is taken first (`undo`, by the same view, so it covers
   * every file the restore changes), so the restore itself can be undone.
   */
  restore(id: string, options: { overwriteExternal: boolean; sessionId: string }): Promise<RestoreResult> {
    return this.locked(async (index) => {
      const { diff, view } = await this.diffIn(index, id);
      const commit = diff.entry.commit!;
      const restored = diff.files.filter((f) => options.overwriteExternal || !f.external);
      const kept = diff.files.filter((f) => !restored.includes(f));
      let undo: CheckpointEntry | null = null;
      if (restored.length > 0) {
        const snap = await observe(this.ctx, view.file);
        if ('error' in snap) throw new Error(`no checkpoint of the present could be taken first: ${snap.error}`);
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
          view: view.hash,
          exclude: snap.exclude,
        };
        await writeCheckpointRef(this.repo, undo.id, undoCommit);
        index.entries.push(undo);
      }
      // The repository's exclude file first: one that cannot be written (`.git/info` a link) stops the restore before
      // any file changed.
      if (restored.some((f) => f.path === INFO_EXCLUDE)) {
        const then = diff.entry.exclude;
        await writeInfoExclude(this.projectRoot, then ? await this.rules.read(then) : null);
      }
      const files = restored.filter((f) => f.path !== INFO_EXCLUDE);
      // Deletions first: a path that is now a symbolic link where the checkpoint had a folder goes before git writes
      // the folder's files (git lists links as links and never a path through one, so nothing outside is touched).
      for (const f of files.filter((r) => r.action === 'delete'))
        await fs.promises.rm(path.join(this.projectRoot, f.path), { force: true });
      const write = files.filter((f) => f.action !== 'delete').map((f) => f.path);
      if (write.length > 0)
        await runGit(this.repo, ['checkout', commit, '--pathspec-from-file=-', '--pathspec-file-nul'], {
          env: { GIT_LITERAL_PATHSPECS: '1' },
          input: write.join('\0'),
        });
      // The restored state is what the agent's files are now: later changes are someone else's again.
      if (undo) {
        const after = await observe(this.ctx, view.file);
        if (!('error' in after)) {
          await writeCheckpointRef(this.repo, undo.id, after.tree, 'checkpoint-after');
          undo.afterTree = after.tree;
          undo.afterExclude = after.exclude;
        }
      }
      return { restored, kept, undo };
    });
  }

  private async diffIn(index: CheckpointIndex, id: string): ReturnType<typeof diffCheckpoint> {
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
    return diffCheckpoint(this.ctx, index, entry);
  }

  /** Checkpoints older than the retention period go, with the files only they kept. */
  private async prune(index: CheckpointIndex, retentionDays: number): Promise<void> {
    const cutoff = Date.now() - retentionDays * DAY_MS;
    const old = index.entries.filter((e) => Date.parse(e.createdAt) < cutoff);
    if (old.length === 0) return;
    index.entries = index.entries.filter((e) => !old.includes(e));
    for (const e of old) {
      if (e.commit) await runGit(this.repo, ['update-ref', '-d', `refs/checkpoints/${e.id}`]).catch(() => undefined);
      if (e.afterTree)
        await runGit(this.repo, ['update-ref', '-d', `refs/checkpoint-after/${e.id}`]).catch(() => undefined);
    }
    await runGit(this.repo, ['reflog', 'expire', '--expire=now', '--all']).catch(() => undefined);
    await runGit(this.repo, ['gc', '-q', '--prune=now']).catch(() => undefined);
    forgetWrittenTrees(this.repo);
    // The views and exclude texts only the deleted checkpoints named (written before being named: never the ones
    // of a checkpoint being taken, which holds this lock).
    const named = new Set<string>();
    for (const e of index.entries)
      for (const h of [e.view, e.exclude, e.afterExclude]) if (typeof h === 'string') named.add(h);
    await this.rules.prune(named).catch(() => undefined);
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

  /** `write`: whether the index is written afterwards; 'changed': only when `fn` changed it (a run's moments). */
  private locked<T>(fn: (index: CheckpointIndex) => Promise<T>, write: boolean | 'changed' = true): Promise<T> {
    return withStateLock(this.paths.indexFile, async () => {
      const index = await readIndex(this.paths.indexFile, this.projectRoot);
      const before = write === 'changed' ? JSON.stringify(index) : '';
      const result = await fn(index);
      if (write === true || (write === 'changed' && JSON.stringify(index) !== before))
        await writeIndex(this.paths.indexFile, index);
      return result;
    });
  }
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
