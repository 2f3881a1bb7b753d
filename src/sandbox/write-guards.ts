/**
 * What a sandboxed command may never change, even inside a writable root: the permission rules Gatehouse reads
 * (`.gatehouse/`, `.claude/`) and what git runs later outside the sandbox (the hooks and config of the root's git
 * dir, wherever a `.git` file points, of its common dir and of its submodules; files the config includes; a
 * `core.hooksPath` folder). Every writable root gets them: an additional directory is usually another checkout,
 * whose rules apply when it is opened as a project and whose hooks run on the person's next commit there.
 *
 * Paths are judged by where they land: a guarded path is walked one name at a time from a real folder. Which
 * shape each part takes decides how it is kept:
 * - it exists: bound read-only onto itself (a mount point cannot be written, removed or renamed);
 * - it does not exist yet: its first missing name gets an empty read-only folder mounted for the command (see
 *   placeholders.ts), so nothing can be created at or below it;
 * - the folders between the writable root and it are pinned (bound onto themselves), so renaming one of them
 *   (`mv .git .git-old`) cannot carry the guard away and leave the name free;
 * - a name inside a writable root that is a symbolic link is a problem bubblewrap cannot solve (a mount lands on
 *   the link's target; the link itself could be removed and replaced by a folder of the command's making), so
 *   such a root is refused with the reason rather than run half-guarded. Seatbelt denies by path and needs no
 *   mount: it gets every path as named and as landing.
 */
import type * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { onlyMarkerNames } from './placeholder-marker';
import { isInside } from '../shared/node/path-containment';

/** Folders of a root whose every file is permission rules (Gatehouse's own and the Claude Code settings it reads). */
const GUARDED_FOLDERS = ['.gatehouse', '.claude'] as const;
/** Submodule git dirs looked at under one `.git/modules` (beyond that the whole `modules` folder is read-only). */
const MAX_MODULE_GITDIRS = 64;
/** Config files followed through `include.path` / `includeIf.*.path`. */
const MAX_CONFIG_FILES = 16;
const MAX_LINK_HOPS = 40;

export interface RootGuards {
  /** Existing folders between a writable root and a guarded path, shallowest first: bound onto themselves. */
  pins: string[];
  /** Existing guarded files and folders (real paths): bound read-only onto themselves. */
  readOnly: string[];
  /** The first missing name of each guarded path that does not exist yet (its parent is real): an empty read-only folder goes there. */
  absent: string[];
  /** Every guarded path inside a writable root as named and as it lands, existing or not (what Seatbelt denies). */
  paths: string[];
  /** Why a root cannot be guarded as it is (a guarded name that is a symbolic link); empty when every guard holds. */
  problems: string[];
}

async function lstat(p: string): Promise<fs.Stats | null> {
  try {
    return await fsp.lstat(p);
  } catch {
    return null;
  }
}

async function readText(p: string): Promise<string | null> {
  try {
    return await fsp.readFile(p, 'utf8');
  } catch {
    return null;
  }
}

async function isPlaceholder(dir: string): Promise<boolean> {
  try {
    return onlyMarkerNames(await fsp.readdir(dir));
  } catch {
    return false;
  }
}

class GuardCollector {
  private readonly pins = new Set<string>();
  private readonly readOnly = new Set<string>();
  private readonly absent = new Set<string>();
  private readonly paths = new Set<string>();
  private readonly problems = new Set<string>();

  constructor(private readonly roots: readonly string[]) {}

  /** The deepest writable root holding `p`, or null. */
  rootOf(p: string): string | null {
    let best: string | null = null;
    for (const r of this.roots) if (isInside(p, r) && (best === null || r.length > best.length)) best = r;
    return best;
  }

  /**
   * Guards `target` (absolute), walking it name by name from `base`, a real folder it lies in. `what` names it in a
   * problem ("the Claude Code settings folder").
   */
  async guard(base: string, target: string, what: string): Promise<void> {
    const normal = path.resolve(target);
    if (this.rootOf(normal) !== null) this.paths.add(normal);
    let current = isInside(normal, base) ? base : path.parse(normal).root;
    const rest = path
      .relative(current, normal)
      .split(path.sep)
      .filter((s) => s !== '');
    let hops = 0;
    while (rest.length > 0) {
      const name = rest.shift() as string;
      const next = path.join(current, name);
      const st = await lstat(next);
      // A placeholder another command holds is still a missing name: this command holds it too (placeholders.ts).
      if (st === null || (st.isDirectory() && this.rootOf(next) !== null && (await isPlaceholder(next)))) {
        this.markAbsent(current, next, rest);
        return;
      }
      if (st.isSymbolicLink()) {
        if (this.rootOf(current) !== null) {
          const fix =
            name === 'hooks'
              ? 'set core.hooksPath to the folder instead of linking it'
              : 'replace the link by what it points to';
          this.problems.add(
            `${next} (${what}) is a symbolic link, which the sandbox cannot keep from being replaced: ${fix}`,
          );
          this.paths.add(next);
        }
        if (++hops > MAX_LINK_HOPS) return;
        let link: string;
        try {
          link = await fsp.readlink(next);
        } catch {
          return;
        }
        const resolved = path.resolve(current, link);
        current = path.parse(resolved).root;
        rest.unshift(
          ...path
            .relative(current, resolved)
            .split(path.sep)
            .filter((s) => s !== ''),
        );
        continue;
      }
      current = next;
    }
    const root = this.rootOf(current);
    if (root === null) return;
    this.paths.add(current);
    this.readOnly.add(current);
    this.pinBetween(root, path.dirname(current));
  }

  private markAbsent(parent: string, first: string, rest: readonly string[]): void {
    const root = this.rootOf(parent);
    if (root === null) return; // under a read-only folder: nothing can be created there anyway
    this.paths.add(path.join(first, ...rest));
    this.absent.add(first);
    this.pinBetween(root, parent);
  }

  /** Pins every folder from just below `root` down to `dir`. */
  private pinBetween(root: string, dir: string): void {
    for (let d = dir; d !== root && isInside(d, root); d = path.dirname(d)) this.pins.add(d);
  }

  result(): RootGuards {
    const guarded = [...this.readOnly, ...this.absent];
    // A guard inside another read-only guard is read-only already (and bubblewrap could not mount inside it).
    const covered = (p: string): boolean => guarded.some((g) => g !== p && isInside(p, g));
    // Shallowest first (a mount's parent before it), then by code units: the same order in every locale, and no
    // collator to load (localeCompare's first call loads one, on every worker's start).
    const byDepth = (a: string, b: string): number =>
      a.split(path.sep).length - b.split(path.sep).length || (a < b ? -1 : a > b ? 1 : 0);
    return {
      pins: [...this.pins].filter((p) => !covered(p) && !guarded.includes(p) && !this.roots.includes(p)).sort(byDepth),
      readOnly: [...this.readOnly].filter((p) => !covered(p)).sort(byDepth),
      absent: [...this.absent].filter((p) => !covered(p)).sort(byDepth),
      paths: [...this.paths].sort(byDepth),
      problems: [...this.problems],
    };
  }
}

/** A git config value: quotes removed, a comment after it dropped. */
function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < raw.length) out += raw[++i];
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}

interface ConfigFacts {
  hooksPaths: string[];
  includes: string[];
  worktreeConfig: boolean;
}

/** What a git config file says about where code comes from: `core.hooksPath`, included files, per-worktree config. */
export function readConfigFacts(text: string): ConfigFacts {
  const facts: ConfigFacts = { hooksPaths: [], includes: [], worktreeConfig: false };
  let section = ''; // `core`, or `includeif "…"` as `includeif "` (a subsection, old `[a.b]` spelling included)
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)(\s+"(?:[^"\\]|\\.)*")?\s*\](.*)$/.exec(line);
    let body = line;
    if (header !== null) {
      const name = (header[1] ?? '').toLowerCase();
      const dot = name.indexOf('.');
      section = header[2] !== undefined ? `${name} "` : dot === -1 ? name : `${name.slice(0, dot)} "`;
      body = header[3] ?? '';
    }
    const kv = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(body);
    if (kv === null) continue;
    const key = (kv[1] ?? '').toLowerCase();
    const value = configValue(kv[2] ?? '');
    if (section === 'core' && key === 'hookspath' && value !== '') facts.hooksPaths.push(value);
    else if ((section === 'include' || section === 'includeif "') && key === 'path' && value !== '')
      facts.includes.push(value);
    else if (section === 'extensions' && key === 'worktreeconfig' && /^(true|yes|on|1)$/i.test(value))
      facts.worktreeConfig = true;
  }
  return facts;
}

function expandHome(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p;
}

/** The git dir a `.git` file names (`gitdir: ../.git/worktrees/x`), resolved against the folder holding it. */
async function gitFileTarget(dotGit: string): Promise<string | null> {
  const m = /^gitdir:\s*(.+?)\s*$/m.exec((await readText(dotGit)) ?? '');
  return m?.[1] === undefined ? null : path.resolve(path.dirname(dotGit), m[1]);
}

async function realOrNull(p: string): Promise<string | null> {
  try {
    return await fsp.realpath(p);
  } catch {
    return null;
  }
}

/** Submodule git dirs under `<gitDir>/modules` (a folder holding HEAD is one; names may hold slashes), or null when there are too many. */
async function moduleGitDirs(gitDir: string): Promise<string[] | null> {
  const out: string[] = [];
  const queue = [path.join(gitDir, 'modules')];
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    if (entries.some((e) => e.name === 'HEAD' && e.isFile())) {
      out.push(dir);
      if (out.length > MAX_MODULE_GITDIRS) return null;
      queue.push(path.join(dir, 'modules'));
      continue;
    }
    for (const e of entries) if (e.isDirectory()) queue.push(path.join(dir, e.name));
  }
  return out;
}

/** `workTree` is where a relative `core.hooksPath` is taken from (null for a submodule's git dir: only absolute ones). */
async function guardGitDir(
  c: GuardCollector,
  gitDir: string,
  workTree: string | null,
  home: string,
  withModules: boolean,
): Promise<void> {
  await c.guard(gitDir, path.join(gitDir, 'hooks'), 'the git hooks folder');
  const configs = [path.join(gitDir, 'config')];
  const worktreeConfig = path.join(gitDir, 'config.worktree');
  let perWorktree = (await lstat(worktreeConfig)) !== null;
  for (let i = 0; i < configs.length && i < MAX_CONFIG_FILES; i++) {
    const file = configs[i] as string;
    await c.guard(path.dirname(file) === gitDir ? gitDir : '/', file, 'a git config file');
    const facts = readConfigFacts((await readText(file)) ?? '');
    perWorktree ||= facts.worktreeConfig;
    for (const raw of facts.hooksPaths) {
      const hooks = expandHome(raw, home);
      if (workTree !== null || path.isAbsolute(hooks))
        await c.guard(workTree ?? '/', path.resolve(workTree ?? '/', hooks), 'the folder core.hooksPath names');
    }
    for (const inc of facts.includes) {
      const abs = path.resolve(path.dirname(file), expandHome(inc, home));
      if (!configs.includes(abs)) configs.push(abs);
    }
  }
  if (perWorktree) await c.guard(gitDir, worktreeConfig, 'a git config file');
  if (!withModules) return;
  const modules = await moduleGitDirs(gitDir);
  if (modules === null) await c.guard(gitDir, path.join(gitDir, 'modules'), "the submodules' git dirs");
  else for (const m of modules) await guardGitDir(c, m, null, home, false);
}

/** The guards of every writable root (real paths), as of now: recomputed for each command. */
export async function writableRootGuards(roots: readonly string[], home: string): Promise<RootGuards> {
  const c = new GuardCollector(roots);
  for (const root of roots) {
    for (const name of GUARDED_FOLDERS)
      await c.guard(
        root,
        path.join(root, name),
        name === '.gatehouse' ? 'the Gatehouse settings folder' : 'the Claude Code settings folder',
      );
    const dotGit = path.join(root, '.git');
    const st = await lstat(dotGit);
    if (st === null) continue; // no repository here: `git init` stays possible
    if (st.isDirectory()) {
      await guardGitDir(c, dotGit, root, home, true);
      continue;
    }
    // A `.git` file (worktree, submodule) or a link: the name itself is guarded, then the git dir it leads to.
    await c.guard(root, dotGit, 'the .git file');
    const target = st.isSymbolicLink() ? await realOrNull(dotGit) : await gitFileTarget(dotGit);
    const gitDir = target === null ? null : await realOrNull(target);
    if (gitDir === null) continue;
    await guardGitDir(c, gitDir, root, home, true);
    const commonFile = path.join(gitDir, 'commondir');
    const common = await readText(commonFile);
    if (common === null) continue;
    await c.guard(gitDir, commonFile, "the worktree's commondir file");
    const commonDir = await realOrNull(path.resolve(gitDir, common.trim()));
    if (commonDir !== null) await guardGitDir(c, commonDir, root, home, true);
  }
  return c.result();
}

/** Thrown for a root whose guards cannot hold (see `RootGuards.problems`): the command does not run. */
export class UnguardableRootError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the sandbox cannot keep the permission rules and git hooks read-only: ${problems.join('; ')}`);
    this.name = 'UnguardableRootError';
  }
}
