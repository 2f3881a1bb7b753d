import type { Decision } from '../../../../shared/permission';
import type { CommandFacts } from '../call-facts';
import type { CommandReach } from '../command-reaches';
import { judgePath, type JudgedPath } from '../../paths/judged-path';
import { decision, type CallContext } from '../stage-types';

/**
 * Self-protection for writes only the run decides (contract "Assurance: Run-time write targets"): when a command's
 * reach (`tar -x` in the project root, `git checkout evil`, `cp -r x/. .claude`) includes the project's .gatehouse/,
 * .claude/, .git/hooks/ or .git/config (or Gatehouse's user files), no rule, mode, hook or classifier allows it,
 * with or without the OS sandbox: it asks, naming the protected place, and only a person can allow it, once. A deny
 * (hard check, deny rule) stands. Like an unreadable command, this is a cap on whatever the stages decided.
 */

const ONLY_A_PERSON = 'only you can allow this, once: no rule, mode or hook allows it';

/** How many entries under a reached folder are looked at for links leading into a protected place. */
const MAX_ENTRIES = 20_000;
/** How deep; each level is one round of fetching for an asynchronous decision. */
const MAX_DEPTH = 24;

/** The protected places `p` reaches, as one phrase ("the project's .gatehouse/, .claude/ and .git/config"), or null. */
function protectedOf(ctx: CallContext, p: JudgedPath): string | null {
  const forms = [p.real, p.lexical, ...(p.physical ? [p.physical] : [])];
  const hits = [...new Set(forms.flatMap((f) => ctx.protectedPaths.reachedBy(f)))];
  if (hits.length === 0) return null;
  const project = hits.filter((h) => h.startsWith('.'));
  const other = hits.filter((h) => !h.startsWith('.'));
  const list = (items: string[]): string =>
    items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
  return list([...(project.length > 0 ? [`the project's ${list(project)}`] : []), ...other]);
}

/** The reached place as the person wrote it, and where it really is when that differs. */
function where(p: JudgedPath): string {
  if (p.given === '.' || p.given === '') return `the working directory (${p.real})`;
  return p.given === p.real ? p.real : `${p.given} (${p.real})`;
}

/**
 * A symbolic link under `real` that leads into (or above) a protected place: an archive or a copy writing through
 * it lands there. Null when there is none; a reason when there are too many entries to tell.
 */
function linkIntoProtected(ctx: CallContext, real: string): string | null {
  const fs = ctx.confinement.fs;
  if (fs.lstat(real)?.isDirectory() !== true) return null;
  fs.prefetchTree?.(real, MAX_ENTRIES);
  let level = [real];
  let seen = 0;
  for (let depth = 0; level.length > 0; depth++) {
    if (depth >= MAX_DEPTH) return `${real} is too deep to check for links into protected folders`;
    const next: string[] = [];
    for (const dir of level) {
      for (const entry of fs.readdir(dir) ?? []) {
        if (++seen > MAX_ENTRIES) return `${real} holds too many files to check for links into protected folders`;
        const full = ctx.confinement.sys.join(dir, entry.name);
        if (entry.isSymbolicLink()) {
          const hit = protectedOf(ctx, judgePath(ctx.confinement, full));
          if (hit) return `${full} is a link to ${hit}`;
        } else if (entry.isDirectory()) next.push(full);
      }
    }
    level = next;
  }
  return null;
}

function reachProblem(ctx: CallContext, r: CommandReach): string | null {
  if (r.path.unknown) return `${r.why}, and where cannot be known before it runs (it may be a protected folder)`;
  const own = protectedOf(ctx, r.path);
  if (own) return `${r.why} into ${where(r.path)}, which reaches ${own}`;
  if (!r.followsLinks) return null;
  const link = linkIntoProtected(ctx, r.path.real);
  return link === null ? null : `${r.why} into ${where(r.path)}, and ${link}`;
}

/** Why the command's run-time writes may touch a protected place, or null. */
function protectedReach(facts: CommandFacts, ctx: CallContext): string | null {
  for (const part of facts.parts) {
    for (const r of part.reaches) {
      const problem = reachProblem(ctx, r);
      if (problem) return problem;
    }
  }
  return null;
}

/** The cap: a deny stands; anything else asks a person (once), naming what is protected. */
export function capProtectedReach(result: Decision, ctx: CallContext): Decision {
  if (result.decision === 'deny' || ctx.facts.kind !== 'command') return result;
  const problem = protectedReach(ctx.facts, ctx);
  if (problem === null) return result;
  const reason = `${problem}: ${ONLY_A_PERSON}`;
  return decision('ask', 'hard', result.decision === 'ask' ? `${reason}; also: ${result.reason}` : reason);
}
