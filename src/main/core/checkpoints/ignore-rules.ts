import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMissing, readRegularFile } from '../fs/read-regular-file';
import { viewText, type GitignoreSource } from './gitignore-translate';
import { readInfoExclude } from './info-exclude';
import { MAX_RULES_BYTES, type RulesStore } from './rules-store';
import { nulList, runGit, type ShadowGit } from './shadow-git';

/**
 * A checkpoint's view: the project's ignore rules at the moment it is taken, read the way git reads them for the
 * project (every `.gitignore` in a folder git walks, ignored ones too: a `.venv/.gitignore` holding `*` ignores
 * itself; `.git/info/exclude`; the global excludes file, `core.excludesFile` of the person's git or
 * `$XDG_CONFIG_HOME/git/ignore`), kept as one exclude file. What a checkpoint covers is judged by its view forever
 * after, so rules written later (by anyone) change nothing about it.
 */

/** Always left out of checkpoints, whatever the rules say (a negation in a `.gitignore` cannot bring them in). */
export const BASE_EXCLUDES = ['.git', '.DS_Store'];

export interface View {
  /** The view's hash in the rules store (its file is `rules.file(hash)`). */
  hash: string;
  file: string;
  /** The hash of `.git/info/exclude`'s text then, null when there was none. */
  exclude: string | null;
}

/** Every `.gitignore` git reads for the project now: those in the folders it walks, ignored or not. */
async function listGitignores(repo: ShadowGit, excludeFile: string | null, globalFile: string | null) {
  // An index that does not exist: every file is "other", so git lists them by the rules alone.
  const env = { GIT_INDEX_FILE: path.join(repo.gitDir, 'gatehouse-no-index') };
  const rules = [
    '-c',
    `core.excludesFile=${globalFile ?? os.devNull}`,
    'ls-files',
    '-z',
    '--others',
    '--exclude-standard',
    ...(excludeFile ? [`--exclude-from=${excludeFile}`] : []),
  ];
  const pathspec = ['--', ':(glob)**/.gitignore'];
  const [kept, ignored] = await Promise.all([
    runGit(repo, [...rules, ...pathspec], { env }),
    // --directory: an ignored folder is one entry, never walked (git reads nothing in it).
    runGit(repo, [...rules, '--ignored', '--directory', ...pathspec], { env }),
  ]);
  return [...nulList(kept.stdout), ...nulList(ignored.stdout)].filter(
    (p) => !p.endsWith('/') && path.posix.basename(p) === '.gitignore',
  );
}

/** The project's `.gitignore` files' texts; one that is a link is skipped, as git (2.32 and later) skips it. */
async function readGitignores(root: string, files: readonly string[]): Promise<GitignoreSource[]> {
  const out: GitignoreSource[] = [];
  let total = 0;
  for (const rel of [...new Set(files)].sort()) {
    const file = path.join(root, rel);
    const st = await fs.promises.lstat(file).catch(() => null);
    if (!st?.isFile()) continue;
    const text = await readRegularFile(file, { maxBytes: MAX_RULES_BYTES, what: 'ignore rule files' });
    total += text.length;
    if (total > MAX_RULES_BYTES)
      throw new Error(`the project's .gitignore files hold more than ${MAX_RULES_BYTES} bytes of rules (at ${file})`);
    const dir = path.posix.dirname(rel);
    out.push({ dir: dir === '.' ? '' : dir, text });
  }
  return out;
}

/** The current ignore rules as a view, stored in `rules` (the same rules give the same hash). */
export async function currentView(repo: ShadowGit, rules: RulesStore): Promise<View> {
  const [infoExclude, global] = await Promise.all([readInfoExclude(repo.workTree), readGlobalExcludes()]);
  const exclude = infoExclude === null ? null : await rules.put(infoExclude);
  const globalFile = global === null ? null : rules.file(await rules.put(global.text));
  const gitignores = await readGitignores(
    repo.workTree,
    await listGitignores(repo, exclude === null ? null : rules.file(exclude), globalFile),
  );
  const hash = await rules.put(viewText({ base: BASE_EXCLUDES, global, infoExclude, gitignores }));
  return { hash, file: rules.file(hash), exclude };
}

/**
 * Which of `paths` (files, relative to the root) the view in `viewFile` ignores: git's own matching of the view
 * alone, in an empty work tree (so no `.gitignore` of today's project is read).
 */
export async function ignoredBy(
  repo: ShadowGit,
  emptyDir: string,
  viewFile: string,
  paths: readonly string[],
): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  // Empty it must be: a `.gitignore` there would be read as rules.
  const inside = await fs.promises.readdir(emptyDir).catch(() => null);
  if (inside?.length) await fs.promises.rm(emptyDir, { recursive: true, force: true });
  await fs.promises.mkdir(emptyDir, { recursive: true, mode: 0o700 });
  const out = await runGit(
    { gitDir: repo.gitDir, workTree: emptyDir },
    ['-c', `core.excludesFile=${viewFile}`, 'check-ignore', '-z', '--no-index', '--stdin'],
    { input: paths.join('\0'), okCodes: [1] },
  );
  return new Set(nulList(out.stdout));
}

interface GlobalExcludes {
  path: string;
  text: string;
}

let globalPath: { key: string; path: Promise<string | null> } | null = null;

function configEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_GLOBAL', 'SYSTEMROOT']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** The person's `core.excludesFile` (their global git config, includes followed), or git's default path. */
async function globalExcludesPath(): Promise<string | null> {
  const home = process.env.HOME ?? '';
  const xdg = process.env.XDG_CONFIG_HOME ?? '';
  const configs = [path.join(home, '.gitconfig'), path.join(xdg || path.join(home, '.config'), 'git', 'config')];
  const stamps = await Promise.all(
    configs.map((f) =>
      fs.promises.stat(f).then(
        (st) => `${st.ino}:${st.mtimeMs}:${st.size}`,
        () => '-',
      ),
    ),
  );
  const key = [home, xdg, process.env.GIT_CONFIG_GLOBAL ?? '', ...stamps].join('|');
  if (globalPath?.key !== key) {
    const configured = new Promise<string | null>((resolve) => {
      execFile(
        'git',
        ['config', '--global', '--includes', '--type=path', '--get', 'core.excludesFile'],
        { env: configEnv(), encoding: 'utf8', windowsHide: true },
        (err, stdout) => resolve(err ? null : stdout.replace(/\n$/, '') || null),
      );
    });
    globalPath = {
      key,
      path: configured.then((p) => {
        if (p !== null) return path.resolve(home || '/', p);
        if (xdg) return path.join(xdg, 'git', 'ignore');
        return home ? path.join(home, '.config', 'git', 'ignore') : null;
      }),
    };
  }
  return globalPath.path;
}

/** The global excludes file's text (a link is followed: it is the person's own file), or null when there is none. */
async function readGlobalExcludes(): Promise<GlobalExcludes | null> {
  const file = await globalExcludesPath();
  if (file === null) return null;
  try {
    return { path: file, text: await readRegularFile(file, { maxBytes: MAX_RULES_BYTES, what: 'ignore rule files' }) };
  } catch (err) {
    if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
}
