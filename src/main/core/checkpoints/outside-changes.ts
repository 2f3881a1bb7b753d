import type { CheckpointEntry } from './checkpoint-index';
import { INFO_EXCLUDE } from './info-exclude';
import { nulList, runGit, type ShadowGit } from './shadow-git';

/**
 * Which of a restore's files were changed by someone other than the agent since the checkpoint: the person (an
 * editor, another terminal) or another program. The checkpoints note the files at moments of known authorship: each
 * checkpoint (before a prompt), the start and end of each of the run's tool calls, the end of each run. A change
 * between a checkpoint and the first tool call, between two tool calls, after the last one, or between runs is not
 * the agent's; a change while a tool ran is. Where a run's end was not noted (it crashed), or a moment of it could not
 * be noted, every change of that stretch counts as someone else's: a person confirms more rather than losing work.
 *
 * Each noted moment saw the files through its checkpoint's view (its ignore rules). A file that a later view ignores
 * is not seen at those moments: across such a gap, a change counts as someone else's (nothing says who made it), so
 * a rewind lists it as changed outside the agent and keeps it unless the person confirms. The agent's own rule
 * change cannot hide its changes of the same run, which are always seen by that run's view.
 */

/** One noted moment after the checkpoint, oldest first. */
export interface Moment {
  tree: string;
  /** `.git/info/exclude` then (a hash in the rules store, null: none; undefined: not noted). */
  exclude: string | null | undefined;
  /** The view it saw the files through (undefined: a checkpoint taken before views were kept). */
  view: string | undefined;
  /** What led to it from the moment before: the agent's own run, or a stretch outside the agent. */
  after: 'run' | 'outside';
}

/** The moments from checkpoint `from` on (`from` itself first), ending with the present. */
export function momentsSince(
  entries: readonly CheckpointEntry[],
  from: CheckpointEntry,
  now: { tree: string; exclude: string | null },
): Moment[] {
  const chain = entries.slice(entries.indexOf(from)).filter((e) => e.commit);
  const moments: Moment[] = [];
  for (const e of chain) {
    moments.push({ tree: e.commit!, exclude: e.exclude, view: e.view, after: 'outside' });
    if (e.afterTree)
      moments.push({
        tree: e.afterTree,
        exclude: e.afterExclude,
        view: e.view,
        after: e.outsideUnknown ? 'outside' : 'run',
      });
  }
  moments.push({ tree: now.tree, exclude: now.exclude, view: from.view, after: 'outside' });
  return moments;
}

export interface OutsideContext {
  repo: ShadowGit;
  /** Which of `paths` the view `hash` ignores. */
  ignoredBy: (hash: string, paths: readonly string[]) => Promise<Set<string>>;
}

/** The paths of `paths` (and `.git/info/exclude`) changed outside the agent between the first moment and the last. */
export async function outsideChanges(
  ctx: OutsideContext,
  entries: readonly CheckpointEntry[],
  from: CheckpointEntry,
  moments: readonly Moment[],
  paths: readonly string[],
): Promise<Set<string>> {
  const external = new Set<string>();
  const wanted = new Set(paths);
  // Noted by the runs themselves: changed between their tool calls.
  for (const e of entries.slice(entries.indexOf(from)))
    for (const p of e.outside ?? []) if (wanted.has(p) || p === INFO_EXCLUDE) external.add(p);

  // The repository's exclude file is noted at every moment (not noted: a checkpoint older than that).
  for (let i = 1; i < moments.length; i++) {
    const [a, b] = [moments[i - 1]!, moments[i]!];
    if (b.after !== 'outside' || (a.exclude === undefined && b.exclude === undefined)) continue;
    if (a.exclude !== b.exclude) external.add(INFO_EXCLUDE);
  }

  // Files: grouped by which moments see them (one group, all moments, unless a later view ignores some of them).
  const others = [
    ...new Set(moments.map((m) => m.view).filter((v): v is string => v !== undefined && v !== from.view)),
  ];
  // A view that cannot be read (its file gone or altered) saw none of them: their changes count as outside.
  const hidden = await Promise.all(others.map((v) => ctx.ignoredBy(v, paths).catch(() => new Set(paths))));
  const groups = new Map<string, string[]>();
  for (const p of paths) {
    const key = hidden.map((h) => (h.has(p) ? '1' : '0')).join('');
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const names = new Map<string, Promise<string[]>>();
  const changed = (a: string, b: string): Promise<string[]> => {
    const key = `${a}:${b}`;
    let known = names.get(key);
    if (!known) {
      known = runGit(ctx.repo, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', a, b]).then((r) =>
        nulList(r.stdout),
      );
      names.set(key, known);
    }
    return known;
  };
  for (const [key, group] of groups) {
    const seen = (m: Moment): boolean => {
      const at = m.view === undefined || m.view === from.view ? -1 : others.indexOf(m.view);
      return at < 0 || key[at] === '0';
    };
    const members = new Set(group);
    let last = 0;
    for (let i = 1; i < moments.length; i++) {
      const m = moments[i]!;
      if (!seen(m)) continue;
      const gap = i - last > 1;
      const a = moments[last]!;
      if ((gap || m.after === 'outside') && a.tree !== m.tree)
        for (const p of await changed(a.tree, m.tree)) if (members.has(p)) external.add(p);
      last = i;
    }
  }
  return external;
}
