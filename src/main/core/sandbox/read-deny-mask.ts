/**
 * The files and folders the `Read(...)` deny rules deny, found on disk so the OS sandbox can hide them: the engine
 * sees only the paths a command names, not what `grep -r .` or a script opens. Matching is the engine's own
 * (`RuleSet.matchCommandPath('read', 'deny', ...)`, every source, an untrusted project's deny rules included;
 * a `read_file(...)` rule names that one tool, so it hides nothing from commands).
 *
 * - A pattern with a literal base (`./secrets/**`, `//abs/dir/**`, `~/x/**`) is looked up at that base: hidden
 *   whole when the rule covers everything below it, else walked.
 * - A pattern without one (`.env`, `*.pem`, `**\/id_rsa`) is looked for in the project and the additional
 *   directories (a name pattern elsewhere on disk is not searched), and `~/…` / `//…` patterns with no literal base
 *   under the home directory / the whole file system.
 * - Nothing is skipped (gitignored files, `.git`, `node_modules`: a denied name can be anywhere), so the walk is
 *   bounded by entries and time; past the bound the result is `incomplete` and the sandbox reports unavailable
 *   (every command asks) rather than running with a partial mask.
 * - Only deny rules hide: ask rules and the sensitive-file defaults (`.env` asks) do not.
 * - The walk is asynchronous (it runs in the Electron main process, which must never wait on the disk) and can be
 *   cancelled with an AbortSignal.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ReadDenyMaskWire } from '../../../shared/worker-protocol';
import type { PermissionEngine } from '../permission/engine';
import { compilePathPatternParts } from '../permission/rules/path-pattern';
import { literalSegments } from '../permission/rules/path-rule-index';
import { namesOneTool, type RuleSet } from '../permission/rules/rule-set';
import { isInside } from '../../../shared/node/path-containment';

export const TOO_MANY_FILES = 'too many files to check Read deny rules';
export const CANCELLED = 'the check of the Read deny rules was cancelled';
const DEFAULT_MAX_ENTRIES = 200_000;
const DEFAULT_MAX_MS = 3_000;
/** At most this many hidden paths travel to the worker (the protocol's limit). */
const MAX_HIDDEN = 10_000;

export interface ReadDenyMaskSources {
  rules: RuleSet;
  projectRoot: string;
  home: string;
  /** Real paths of the additional directories (searched for name patterns like the project). */
  additionalDirectories: readonly string[];
}

export interface ReadDenyBounds {
  maxEntries?: number;
  maxMs?: number;
  /** Stops the walk (the result is then incomplete). */
  signal?: AbortSignal;
}

export interface ReadDenyMask extends ReadDenyMaskWire {
  /** Directory entries looked at, and how long it took (for the bench and the logs). */
  entries: number;
  ms: number;
}

/** A descendant no real file is called: a folder is hidden whole only when the rule also denies what is in it. */
const PROBE_CHILD = '\u0001gatehouse-probe\u0001/\u0001x';

async function realOrNull(p: string): Promise<string | null> {
  try {
    return await fs.promises.realpath(p);
  } catch {
    return null;
  }
}

/** Where each walk starts: the literal bases, and the roots searched for patterns without one. */
function startPoints(sources: ReadDenyMaskSources): { starts: string[]; problem: string | null } {
  const starts: string[] = [];
  for (const rule of sources.rules.rules) {
    if (rule.behavior !== 'deny' || !rule.tools.includes('read_file') || namesOneTool(rule)) continue;
    if (rule.kind === 'any')
      return {
        starts: [],
        problem: `the Read deny rule ${rule.text} denies every read: the sandbox cannot hide every file`,
      };
    if (rule.kind !== 'path' || rule.specifier === null) continue;
    const spec = rule.specifier.trim();
    const { anchor } = compilePathPatternParts(spec);
    if (anchor === 'anywhere') {
      starts.push(sources.projectRoot, ...sources.additionalDirectories);
      continue;
    }
    const anchorDir =
      anchor === 'filesystem'
        ? path.parse(sources.projectRoot).root
        : anchor === 'home'
          ? sources.home
          : sources.projectRoot;
    starts.push(path.join(anchorDir, ...(spec === '~' ? [] : literalSegments(spec))));
  }
  // A start inside another is covered by that one's walk.
  const unique = [...new Set(starts.map((s) => path.resolve(s)))].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const s of unique) if (!kept.some((k) => isInside(s, k))) kept.push(s);
  return { starts: kept, problem: null };
}

class Walk {
  readonly hidden = new Map<string, string>();
  entries = 0;
  stopped = false;
  cancelled = false;
  private readonly deadline: number;

  constructor(
    private readonly rules: RuleSet,
    private readonly maxEntries: number,
    maxMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.deadline = Date.now() + maxMs;
  }

  private denyRule(paths: string[]): string | null {
    return this.rules.matchCommandPath('read', 'deny', paths)?.text ?? null;
  }

  private hide(real: string, rule: string): void {
    if (this.hidden.size >= MAX_HIDDEN) this.stopped = true;
    else this.hidden.set(real, rule);
  }

  /** One path (given form; its real form is judged too, like the engine does): hidden, walked, or left. */
  async visit(given: string, kind: 'dir' | 'file' | 'link' | 'other'): Promise<void> {
    if (this.stopped) return;
    if (this.signal?.aborted === true) {
      this.stopped = this.cancelled = true;
      return;
    }
    if (++this.entries > this.maxEntries || (this.entries % 512 === 0 && Date.now() > this.deadline)) {
      this.stopped = true;
      return;
    }
    const real = kind === 'link' ? await realOrNull(given) : given;
    const forms = real === null || real === given ? [given] : [given, real];
    const rule = this.denyRule(forms);
    if (kind === 'link') {
      // Not followed (no loops); a link whose name or target is denied hides the target it reaches.
      if (rule !== null && real !== null) this.hide(real, rule);
      return;
    }
    if (kind !== 'dir') {
      if (rule !== null) this.hide(given, rule);
      return;
    }
    if (rule !== null && this.denyRule([path.join(given, PROBE_CHILD)]) !== null) {
      this.hide(given, rule);
      return;
    }
    let dirents: fs.Dirent[];
    try {
      dirents = await fs.promises.readdir(given, { withFileTypes: true });
    } catch {
      return; // unreadable here: unreadable in the sandbox too
    }
    for (const d of dirents) {
      const child = path.join(given, d.name);
      await this.visit(child, d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'link' : d.isFile() ? 'file' : 'other');
      if (this.stopped) return;
    }
  }
}

/** Hidden paths without those inside a hidden folder (a link may have led the walk into one first). */
function outermost(hidden: Map<string, string>): { path: string; rule: string }[] {
  const sorted = [...hidden].sort(([a], [b]) => a.length - b.length);
  const kept: { path: string; rule: string }[] = [];
  for (const [p, rule] of sorted) if (!kept.some((k) => isInside(p, k.path))) kept.push({ path: p, rule });
  return kept;
}

/** The denied paths that exist now (real paths, each with the rule that denies it), or why the list is incomplete. */
export async function readDenyMask(sources: ReadDenyMaskSources, bounds: ReadDenyBounds = {}): Promise<ReadDenyMask> {
  const started = performance.now();
  const done = (hidden: Map<string, string>, entries: number, incomplete: string | null): ReadDenyMask => ({
    hidden: outermost(hidden),
    ...(incomplete !== null ? { incomplete } : {}),
    entries,
    ms: Math.round((performance.now() - started) * 100) / 100,
  });
  const { starts, problem } = startPoints(sources);
  if (problem !== null) return done(new Map(), 0, problem);
  const walk = new Walk(
    sources.rules,
    bounds.maxEntries ?? DEFAULT_MAX_ENTRIES,
    bounds.maxMs ?? DEFAULT_MAX_MS,
    bounds.signal,
  );
  for (const start of starts) {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.lstat(start);
    } catch {
      continue; // nothing there (yet): nothing to hide
    }
    // The real spelling (case on macOS, symlinked parents): what the sandbox masks and the walk extends.
    const at = stat.isSymbolicLink() ? start : ((await realOrNull(start)) ?? start);
    await walk.visit(
      at,
      stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other',
    );
    if (walk.stopped) return done(walk.hidden, walk.entries, walk.cancelled ? CANCELLED : TOO_MANY_FILES);
  }
  return done(walk.hidden, walk.entries, null);
}

/**
 * The mask for a session's sandbox run config, from the engine's current rule set (rebuilt when the settings
 * snapshot changes): computed once per prompt, never per command. Anything that goes wrong fails closed.
 */
export async function sandboxReadDeny(
  engine: PermissionEngine,
  additionalDirectories: readonly string[],
  bounds: ReadDenyBounds = {},
): Promise<ReadDenyMaskWire> {
  try {
    const state = await engine.state.current();
    const mask = await readDenyMask(
      { rules: state.rules, projectRoot: state.projectRoot, home: state.home, additionalDirectories },
      bounds,
    );
    return { hidden: mask.hidden, ...(mask.incomplete !== undefined ? { incomplete: mask.incomplete } : {}) };
  } catch (err) {
    return {
      hidden: [],
      incomplete: `the Read deny rules could not be checked: ${err instanceof Error ? err.message : String(err)}`.slice(
        0,
        500,
      ),
    };
  }
}
