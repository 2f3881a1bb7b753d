import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { translateGitignore, trimTrailingSpaces } from '../../../src/main/core/checkpoints/gitignore-translate';
import { currentView } from '../../../src/main/core/checkpoints/ignore-rules';
import { RulesStore } from '../../../src/main/core/checkpoints/rules-store';
import { prepareRepo } from '../../../src/main/core/checkpoints/snapshot';

// A checkpoint's view is the project's ignore rules as one exclude file. Differential test against git itself: on
// random trees with random `.gitignore` files at random depths (negations, anchors, folder-only patterns, `**`,
// escapes, trailing spaces, CRLF, byte order marks, folder names with wildmatch characters), plus random
// `.git/info/exclude` and global excludes, the files git lists by the view alone are exactly the files git lists
// with its own per-folder rules. Real git, real files; the seed is printed.

let root: string;
let project: string;
let home: string;
let savedHome: string | undefined;
let savedXdg: string | undefined;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-view-')));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  fs.mkdirSync(project);
  fs.mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
  savedHome = process.env.HOME;
  savedXdg = process.env.XDG_CONFIG_HOME;
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
});
afterEach(() => {
  process.env.HOME = savedHome;
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
  fs.rmSync(root, { recursive: true, force: true });
});

function git(env: Record<string, string>, args: string[]): string[] {
  const out = execFileSync('git', args, {
    cwd: project,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', ...env },
  });
  return out.split('\0').filter(Boolean).sort();
}

/** What git itself lists: its own per-folder rules, the project's info/exclude and the global file. */
function gitsOwn(): string[] {
  // A repository of the project's own (its .git/info/exclude is the one the view read).
  return git({}, ['-c', 'core.quotepath=off', 'ls-files', '-z', '--others', '--exclude-standard']);
}

async function byView(): Promise<string[]> {
  const gitDir = path.join(root, 'shadow');
  const repo = { gitDir, workTree: project };
  await prepareRepo(repo);
  const view = await currentView(repo, new RulesStore(path.join(root, 'rules')));
  return git({ GIT_DIR: gitDir, GIT_WORK_TREE: project }, [
    '-c',
    'core.quotepath=off',
    'ls-files',
    '-z',
    '--others',
    `--exclude-from=${view.file}`,
  ]);
}

function seeded(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

const NAMES = ['a', 'b', 'c.log', 'd e', 'x*y', 'b[1]', 'q?', '#h', '!n', 'build', 'keep.txt', 'sp '];
const PIECES = ['a', 'b', '*', '?', '[ab]', '**', 'c.log', '*.log', 'build', 'd e', 'x\\*y', 'b\\[1]', '\\#h', '\\!n'];

function randomPattern(next: (n: number) => number): string {
  const parts = Array.from({ length: 1 + next(3) }, () => PIECES[next(PIECES.length)]!);
  let p = parts.join('/');
  if (next(4) === 0) p = `/${p}`;
  if (next(4) === 0) p = `${p}/`;
  if (next(5) === 0) p = `!${p}`;
  if (next(8) === 0) p = `${p}  `;
  if (next(10) === 0) p = `${p}\\ `;
  if (next(12) === 0) p = `# ${p}`;
  if (next(15) === 0) p = '';
  return p;
}

function randomTree(next: (n: number) => number): void {
  const dirs = [''];
  for (let i = 0; i < 8; i++) {
    const parent = dirs[next(dirs.length)]!;
    const dir = path.posix.join(parent, NAMES[next(NAMES.length)]!);
    if (dir.split('/').length > 3) continue;
    fs.mkdirSync(path.join(project, dir), { recursive: true });
    if (!dirs.includes(dir)) dirs.push(dir);
  }
  for (let i = 0; i < 30; i++) {
    const dir = dirs[next(dirs.length)]!;
    const file = path.join(project, dir, NAMES[next(NAMES.length)]!);
    if (!fs.existsSync(file)) fs.writeFileSync(file, 'x\n');
  }
  for (const dir of dirs) {
    if (next(3) === 0) continue;
    const lines = Array.from({ length: 1 + next(5) }, () => randomPattern(next));
    const eol = next(4) === 0 ? '\r\n' : '\n';
    const bom = next(6) === 0 ? '\ufeff' : '';
    const file = path.join(project, dir, '.gitignore');
    if (!fs.statSync(path.dirname(file)).isDirectory() || fs.existsSync(file)) continue;
    fs.writeFileSync(file, bom + lines.join(eol) + (next(2) ? eol : ''));
  }
  fs.mkdirSync(path.join(project, '.git', 'info'), { recursive: true });
  fs.writeFileSync(path.join(project, '.git', 'info', 'exclude'), `${randomPattern(next)}\n${randomPattern(next)}\n`);
  fs.writeFileSync(path.join(home, '.config', 'git', 'ignore'), `${randomPattern(next)}\n`);
}

describe('a view (the ignore rules as one exclude file)', () => {
  it('lists exactly what git lists by its own rules, on random trees (seed printed)', async () => {
    const seed = Number(process.env.GATEHOUSE_TEST_SEED ?? Date.now() % 1_000_000);
    console.log(`view translation seed: ${seed} (GATEHOUSE_TEST_SEED=${seed} repeats it)`);
    const next = seeded(seed);
    for (let round = 0; round < 40; round++) {
      fs.rmSync(project, { recursive: true, force: true });
      fs.mkdirSync(project);
      execFileSync('git', ['init', '-q'], { cwd: project, env: { PATH: process.env.PATH, HOME: home } });
      randomTree(next);
      const expected = gitsOwn();
      expect(await byView(), `round ${round} of seed ${seed}`).toEqual(expected);
    }
  });

  it('keeps a .gitignore that ignores itself (a virtualenv\u2019s `*`), and reads none inside an ignored folder', async () => {
    execFileSync('git', ['init', '-q'], { cwd: project, env: { PATH: process.env.PATH, HOME: home } });
    fs.mkdirSync(path.join(project, '.venv', 'lib'), { recursive: true });
    fs.writeFileSync(path.join(project, '.venv', '.gitignore'), '*\n');
    fs.writeFileSync(path.join(project, '.venv', 'lib', 'site.py'), 'x\n');
    fs.mkdirSync(path.join(project, 'node_modules', 'p'), { recursive: true });
    fs.writeFileSync(path.join(project, 'node_modules', 'p', '.gitignore'), '!*\n');
    fs.writeFileSync(path.join(project, 'node_modules', 'p', 'i.js'), 'x\n');
    fs.writeFileSync(path.join(project, '.gitignore'), 'node_modules/\n');
    fs.writeFileSync(path.join(project, 'app.js'), 'x\n');
    expect(await byView()).toEqual(['.gitignore', 'app.js']);
    expect(gitsOwn()).toEqual(['.gitignore', 'app.js']);
  });

  it('rewrites a folder\u2019s patterns relative to the root, as git applies them', () => {
    expect(translateGitignore('sub', '*.log\n/build\na/b\nout/\n!keep.log\n# note\n\n  \n/\n')).toEqual([
      '/sub/**/*.log',
      '/sub/build',
      '/sub/a/b',
      '/sub/**/out/',
      '!/sub/**/keep.log',
    ]);
    expect(translateGitignore('x*y/b[1]', 'z\n')).toEqual(['/x\\*y/b\\[1\\]/**/z']);
    expect(translateGitignore('a\nb', 'z\n')).toBeNull();
    expect(trimTrailingSpaces('a  ')).toBe('a');
    expect(trimTrailingSpaces('a\\  ')).toBe('a\\ ');
    expect(trimTrailingSpaces('a \\')).toBe('a \\');
  });
});
