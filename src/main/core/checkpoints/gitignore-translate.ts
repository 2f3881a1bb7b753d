/**
 * A project's ignore rules as one exclude file, so that git can judge a walk of the project by the rules of another
 * moment (a checkpoint's) with its own matching: `git ls-files --exclude-from=FILE` without `--exclude-standard`
 * reads no `.gitignore` from the work tree. Git's order is kept: a `.gitignore` beats `.git/info/exclude`, which
 * beats the global excludes file, and a deeper `.gitignore` beats a shallower one; within one exclude file the last
 * matching line wins, so the sources are written from weakest to strongest.
 *
 * A `.gitignore` in folder D applies to paths under D only, and its patterns are rewritten to say so from the root:
 * a pattern with a slash at its start or middle is relative to D (`/D/pattern`); one without may match at any depth
 * below D (`/D/**\/pattern`). D itself is escaped for wildmatch. The rest of each line is git's to parse.
 */

export interface GitignoreSource {
  /** The folder of the `.gitignore`, relative to the project root, '' for the root. */
  dir: string;
  text: string;
}

export interface RuleSources {
  /** Always left out (Gatehouse's own base excludes). */
  base: readonly string[];
  global: { path: string; text: string } | null;
  infoExclude: string | null;
  gitignores: readonly GitignoreSource[];
}

/** Git skips a UTF-8 byte order mark at the start of every ignore file. */
function withoutBom(text: string): string {
  return text.startsWith('\ufeff') ? text.slice(1) : text;
}

/**
 * Git's `trim_trailing_spaces`: a run of spaces at the end goes unless a backslash escapes its first one; a line
 * ending in a lone backslash keeps its spaces.
 */
export function trimTrailingSpaces(line: string): string {
  let lastSpace = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ') {
      if (lastSpace < 0) lastSpace = i;
    } else if (c === '\\') {
      i++;
      if (i >= line.length) return line;
      lastSpace = -1;
    } else lastSpace = -1;
  }
  return lastSpace < 0 ? line : line.slice(0, lastSpace);
}

/** A folder name as literal wildmatch text. */
function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, (c) => `\\${c}`);
}

/**
 * The lines of the `.gitignore` of folder `dir` (non-empty, relative, without a newline), rewritten relative to
 * the project root; null when the folder's name cannot be written into a pattern (a newline in it): its rules are
 * then left out, so more files are kept in checkpoints, never fewer.
 */
export function translateGitignore(dir: string, text: string): string[] | null {
  if (/[\n\r]/.test(dir)) return null;
  const prefix = `/${dir.split('/').map(escapeGlob).join('/')}/`;
  const out: string[] = [];
  for (const raw of withoutBom(text).split('\n')) {
    // As git reads a line: a comment, a CR before the newline dropped, trailing spaces trimmed.
    if (raw.startsWith('#')) continue;
    const line = trimTrailingSpaces(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    const negative = line.startsWith('!');
    const pattern = negative ? line.slice(1) : line;
    const core = pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
    if (core === '') continue;
    let rewritten: string;
    if (core.includes('/')) {
      // Relative to the .gitignore's folder; git drops one leading slash.
      const relative = pattern.startsWith('/') ? pattern.slice(1) : pattern;
      if (relative === '' || relative === '/') continue;
      rewritten = prefix + relative;
    } else rewritten = `${prefix}**/${pattern}`;
    out.push((negative ? '!' : '') + rewritten);
  }
  return out;
}

/** Depth first by number of folders, so a deeper `.gitignore` comes later (and wins). */
function byDepth(a: GitignoreSource, b: GitignoreSource): number {
  const da = a.dir === '' ? 0 : a.dir.split('/').length;
  const db = b.dir === '' ? 0 : b.dir.split('/').length;
  return da - db || (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0);
}

function section(title: string, text: string): string[] {
  const body = withoutBom(text);
  return [`# ${title}`, ...(body.endsWith('\n') || body === '' ? [body.slice(0, -1)] : [body])];
}

/** The whole view: one exclude file for `git ls-files --exclude-from` and `core.excludesFile`. */
export function viewText(sources: RuleSources): string {
  const lines: string[] = ['# Gatehouse checkpoint: the ignore rules of the project at one moment', ...sources.base];
  if (sources.global)
    lines.push(...section(`global excludes file ${JSON.stringify(sources.global.path)}`, sources.global.text));
  if (sources.infoExclude !== null) lines.push(...section('.git/info/exclude', sources.infoExclude));
  for (const g of [...sources.gitignores].sort(byDepth)) {
    const name = JSON.stringify(g.dir === '' ? '.gitignore' : `${g.dir}/.gitignore`);
    if (g.dir === '') lines.push(...section(name, g.text));
    else {
      const translated = translateGitignore(g.dir, g.text);
      lines.push(
        `# ${name}${translated === null ? ': its folder name cannot be written into a pattern, left out' : ''}`,
      );
      if (translated) lines.push(...translated);
    }
  }
  return lines.join('\n') + '\n';
}
