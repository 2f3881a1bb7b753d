import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';
import { readSmallRegularFile } from './small-file';

type Ignore = ignore.Ignore;

/**
 * Which files a walk skips, the way ripgrep (`--no-require-git`) and git decide it: `.gitignore` files (patterns by
 * the `ignore` package, git's own semantics) and `.git/info/exclude`. `.git/` and `node_modules/` are always skipped.
 *
 * Precedence, as git and ripgrep have it: the deepest `.gitignore` with a matching rule decides (within one file the
 * last matching rule wins, `!` re-includes); `.git/info/exclude` counts only where no `.gitignore` rule matched. A
 * folder holding `.git` starts a repository: the ignore files above it do not apply inside it.
 */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** An ignore file larger than this is not a list of patterns anyone wrote; it is left unread. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

interface IgnoreLevel {
  /** Folder the rules are relative to, relative to the walk's ignore root ('' = the root), posix separators. */
  base: string;
  gitignore: Ignore | null;
  exclude: Ignore | null;
}

/** What a folder holds that matters for ignoring: its own `.gitignore`, and whether it is a repository's top. */
export interface FolderMarkers {
  hasGitignore: boolean;
  hasGit: boolean;
}

function matcher(text: string | null): Ignore | null {
  if (text === null || text.trim() === '') return null;
  // Case-sensitive, like ripgrep and git on Linux; backslash escapes (`\!`, `\#`, `\ `) as git reads them.
  return ignore({ ignorecase: false, allowRelativePaths: true }).add(text);
}

/** A small text file read without following a symlink and without blocking on a FIFO; null when absent or odd. */
async function readSmallFile(abs: string, maxBytes: number): Promise<string | null> {
  return (await readSmallRegularFile(abs, maxBytes))?.toString('utf8') ?? null;
}

/**
 * The `info/exclude` file of the repository whose top is `absDir`: `.git/info/exclude`, or for a worktree or
 * submodule (`.git` is a file saying `gitdir: …`) the one in its common git folder.
 */
async function excludeFileOf(absDir: string): Promise<string | null> {
  const dotGit = path.join(absDir, '.git');
  let st: fs.Stats;
  try {
    st = await fsp.lstat(dotGit);
  } catch {
    return null;
  }
  if (st.isDirectory()) return path.join(dotGit, 'info', 'exclude');
  if (!st.isFile()) return null;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec((await readSmallFile(dotGit, 4096)) ?? '')?.[1];
  if (pointer === undefined) return null;
  const gitDir = path.resolve(absDir, pointer);
  const common = (await readSmallFile(path.join(gitDir, 'commondir'), 4096))?.trim();
  return path.join(common ? path.resolve(gitDir, common) : gitDir, 'info', 'exclude');
}

/** The ignore rules in force in one folder of a walk (its own files plus its ancestors' up to the repository top). */
export class IgnoreStack {
  private constructor(private readonly levels: readonly IgnoreLevel[]) {}

  static empty(): IgnoreStack {
    return new IgnoreStack([]);
  }

  /**
   * The stack inside a folder (`relDir` relative to the ignore root): adds its `.gitignore` and, when it is a
   * repository's top, its exclude file (and drops the levels above). `markers` says what the folder holds when the
   * caller has listed it already; otherwise the folder is looked at.
   */
  async enter(absDir: string, relDir: string, markers?: FolderMarkers): Promise<IgnoreStack> {
    const seen = markers ?? (await lookAt(absDir));
    const gitignore = seen.hasGitignore
      ? matcher(await readSmallFile(path.join(absDir, '.gitignore'), MAX_IGNORE_FILE_BYTES))
      : null;
    let exclude: Ignore | null = null;
    if (seen.hasGit) {
      const file = await excludeFileOf(absDir);
      exclude = file === null ? null : matcher(await readSmallFile(file, MAX_IGNORE_FILE_BYTES));
    }
    const above = seen.hasGit ? [] : this.levels;
    if (gitignore === null && exclude === null) return above === this.levels ? this : new IgnoreStack(above);
    return new IgnoreStack([...above, { base: relDir, gitignore, exclude }]);
  }

  /**
   * The stack for a walk that starts in `startRel` (relative to the ignore root): the folders from each level down to
   * the start are exempt, so a search asked to look inside an ignored folder looks there (as ripgrep does given
   * that folder), while the rules still apply to what lies inside it.
   */
  exemptingPathTo(startRel: string): IgnoreStack {
    if (startRel === '' || /[\r\n]/.test(startRel)) return this;
    const levels = this.levels.map((level) => {
      const sub =
        level.base === ''
          ? startRel
          : startRel.startsWith(`${level.base}/`)
            ? startRel.slice(level.base.length + 1)
            : null;
      if (sub === null) return level;
      const segments = sub.split('/').map(escapePattern);
      const negations = segments.map((_, i) => `!/${segments.slice(0, i + 1).join('/')}/`);
      const exempt = (rules: Ignore | null): Ignore | null =>
        rules === null ? null : ignore({ ignorecase: false, allowRelativePaths: true }).add(rules).add(negations);
      return { base: level.base, gitignore: exempt(level.gitignore), exclude: exempt(level.exclude) };
    });
    return new IgnoreStack(levels);
  }

  /** `rel`: path relative to the ignore root, posix separators. */
  isIgnored(rel: string, isDir: boolean): boolean {
    return this.decide(rel, isDir, 'gitignore') ?? this.decide(rel, isDir, 'exclude') ?? false;
  }

  private decide(rel: string, isDir: boolean, kind: 'gitignore' | 'exclude'): boolean | null {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i];
      const rules = level?.[kind];
      if (level === undefined || rules === null || rules === undefined) continue;
      let sub: string;
      if (level.base === '') sub = rel;
      else if (rel.startsWith(`${level.base}/`)) sub = rel.slice(level.base.length + 1);
      else continue;
      const result = rules.test(isDir ? `${sub}/` : sub);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return null;
  }

  /** The stack in force inside `relDir` (relative to `rootAbs`), loading every ignore file from the root down. */
  static async forFolder(rootAbs: string, relDir: string): Promise<IgnoreStack> {
    let stack = await IgnoreStack.empty().enter(rootAbs, '');
    if (relDir === '' || relDir === '.') return stack;
    let acc = '';
    for (const seg of relDir.split('/')) {
      acc = acc === '' ? seg : `${acc}/${seg}`;
      stack = await stack.enter(path.join(rootAbs, ...acc.split('/')), acc);
    }
    return stack;
  }
}

/** A file name as a gitignore pattern that matches it literally. */
function escapePattern(name: string): string {
  return name.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`).replace(/ $/, '\\ ');
}

async function lookAt(absDir: string): Promise<FolderMarkers> {
  const exists = (name: string): Promise<boolean> =>
    fsp.lstat(path.join(absDir, name)).then(
      () => true,
      () => false,
    );
  const [hasGitignore, hasGit] = await Promise.all([exists('.gitignore'), exists('.git')]);
  return { hasGitignore, hasGit };
}
