import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdGuards, leasePlaceholders } from '../../../src/sandbox/placeholders';
import { MARKER_PREFIX } from '../../../src/sandbox/placeholder-marker';
import { readConfigFacts, writableRootGuards } from '../../../src/sandbox/write-guards';

let base: string;
let project: string;
let home: string;

function write(rel: string, text = ''): string {
  const file = path.join(base, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
const p = (...rel: string[]): string => path.join(project, ...rel);

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-guards-')));
  project = path.join(base, 'project');
  home = path.join(base, 'home');
  fs.mkdirSync(project);
  fs.mkdirSync(home);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe('writableRootGuards', () => {
  it('a plain repository: existing files read-only, missing names placeholders, .git pinned', async () => {
    write('project/.git/config', '[core]\n');
    write('project/.claude/settings.json', '{}');
    const g = await writableRootGuards([project], home);
    expect(g.readOnly).toEqual([p('.claude'), p('.git', 'config')]);
    expect(g.absent).toEqual([p('.gatehouse'), p('.git', 'hooks')]);
    expect(g.pins).toEqual([p('.git')]);
    expect(g.problems).toEqual([]);
    expect(g.paths).toEqual(
      expect.arrayContaining([p('.gatehouse'), p('.claude'), p('.git', 'hooks'), p('.git', 'config')]),
    );
  });

  it('no repository: only the rule folders (git init stays possible)', async () => {
    const g = await writableRootGuards([project], home);
    expect(g.absent).toEqual([p('.claude'), p('.gatehouse')]);
    expect(g.readOnly).toEqual([]);
    expect(g.pins).toEqual([]);
  });

  it('every writable root is guarded, and a .git file leads to the worktree git dir and its common dir', async () => {
    const other = path.join(base, 'other');
    write('other/.git/config', '[core]\n');
    fs.mkdirSync(path.join(other, '.git', 'hooks'));
    write('other/.git/worktrees/wt/commondir', '../..\n');
    write('project/.git', 'gitdir: ../other/.git/worktrees/wt\n');
    const g = await writableRootGuards([project, other], home);
    const wt = path.join(other, '.git', 'worktrees', 'wt');
    expect(g.readOnly).toEqual(
      expect.arrayContaining([
        p('.git'),
        path.join(other, '.git', 'hooks'),
        path.join(other, '.git', 'config'),
        path.join(wt, 'commondir'),
      ]),
    );
    expect(g.absent).toEqual(
      expect.arrayContaining([path.join(wt, 'hooks'), path.join(other, '.claude'), p('.claude')]),
    );
    // the way to the common dir and to the worktree's git dir cannot be renamed
    expect(g.pins).toEqual([path.join(other, '.git'), path.join(other, '.git', 'worktrees'), wt]);
  });

  it('a git dir outside every writable root needs nothing (it is read-only already)', async () => {
    write('elsewhere/.git/config', '[core]\n');
    write('project/.git', `gitdir: ${path.join(base, 'elsewhere', '.git')}\n`);
    const g = await writableRootGuards([project], home);
    expect(g.readOnly).toEqual([p('.git')]);
    expect(g.absent).toEqual([p('.claude'), p('.gatehouse')]);
    expect(g.pins).toEqual([]);
  });

  it('core.hooksPath (relative to the work tree, ~, absolute), included files and a per-worktree config', async () => {
    write(
      'project/.git/config',
      '[core]\n\thooksPath = "tools/hooks" ; a comment\n[include]\n\tpath = ../shared.gitconfig\n[extensions]\n\tworktreeConfig = true\n',
    );
    write('project/shared.gitconfig', '[includeIf "gitdir:~/"]\n\tpath = ~/more.gitconfig\n');
    write('home/more.gitconfig', '[core]\n\thooksPath = ~/hooks\n');
    const g = await writableRootGuards([project, home], home);
    expect(g.readOnly).toEqual(expect.arrayContaining([p('shared.gitconfig'), path.join(home, 'more.gitconfig')]));
    expect(g.absent).toEqual(
      expect.arrayContaining([p('tools'), path.join(home, 'hooks'), p('.git', 'config.worktree')]),
    );
  });

  it('submodule git dirs under .git/modules (nested names and modules of modules) get their own hooks and config guarded', async () => {
    write('project/.git/config', '');
    write('project/.git/modules/libs/a/HEAD', 'x');
    write('project/.git/modules/libs/a/config', '');
    write('project/.git/modules/libs/a/modules/b/HEAD', 'x');
    const g = await writableRootGuards([project], home);
    const a = p('.git', 'modules', 'libs', 'a');
    const b = path.join(a, 'modules', 'b');
    expect(g.readOnly).toEqual(expect.arrayContaining([path.join(a, 'config')]));
    expect(g.absent).toEqual(
      expect.arrayContaining([path.join(a, 'hooks'), path.join(b, 'hooks'), path.join(b, 'config')]),
    );
    expect(g.pins).toEqual(
      expect.arrayContaining([p('.git', 'modules'), p('.git', 'modules', 'libs'), a, path.join(a, 'modules'), b]),
    );
  });

  it('too many submodules: the whole modules folder is read-only', async () => {
    for (let i = 0; i < 70; i++) write(`project/.git/modules/m${i}/HEAD`, 'x');
    const g = await writableRootGuards([project], home);
    expect(g.readOnly).toContain(p('.git', 'modules'));
    expect(g.absent.filter((a) => a.includes('modules'))).toEqual([]);
  });

  it('a guarded name that is a symbolic link inside a root is a problem (named, with what to do); its target is still guarded', async () => {
    fs.mkdirSync(p('conf', 'claude'), { recursive: true });
    fs.symlinkSync('conf/claude', p('.claude'));
    write('project/.git/config', '');
    fs.mkdirSync(p('scripts', 'hooks'), { recursive: true });
    fs.symlinkSync('../scripts/hooks', p('.git', 'hooks'));
    const g = await writableRootGuards([project], home);
    expect(g.problems).toEqual([
      `${p('.claude')} (the Claude Code settings folder) is a symbolic link, which the sandbox cannot keep from being replaced: replace the link by what it points to`,
      `${p('.git', 'hooks')} (the git hooks folder) is a symbolic link, which the sandbox cannot keep from being replaced: set core.hooksPath to the folder instead of linking it`,
    ]);
    expect(g.readOnly).toEqual(expect.arrayContaining([p('conf', 'claude'), p('scripts', 'hooks')]));
    expect(g.paths).toEqual(expect.arrayContaining([p('.claude'), p('conf', 'claude')]));
  });

  it('a link pointing out of every root is still a problem (it could be swapped), a dangling one too', async () => {
    fs.symlinkSync('/nonexistent/gatehouse', p('.gatehouse'));
    const g = await writableRootGuards([project], home);
    expect(g.problems).toHaveLength(1);
    expect(g.problems[0]).toContain(p('.gatehouse'));
  });
});

describe('readConfigFacts', () => {
  it('reads core.hooksPath only from [core], in any case, with quotes, escapes and comments', async () => {
    const text = [
      '[Core]',
      '\tHooksPath = "a b" # comment',
      '[core "sub"]',
      '\thooksPath = not-this',
      '[core.sub]',
      '\thooksPath = nor-this',
      '[core] hookspath = c\\"d',
      '[includeIf "gitdir:/x/"]',
      '\tpath = inc.cfg',
      '[include]',
      '\tpath = ; empty',
      '[extensions]',
      '\tworktreeConfig = yes',
    ].join('\n');
    expect(readConfigFacts(text)).toEqual({ hooksPaths: ['a b', 'c"d'], includes: ['inc.cfg'], worktreeConfig: true });
  });
});

describe('placeholders', () => {
  it('are shared: removed only when the last command using them ends; a real folder made meanwhile is kept', async () => {
    const dir = p('.claude');
    const a = await leasePlaceholders([dir]);
    const b = await leasePlaceholders([dir]);
    expect(a.held).toEqual([dir]);
    expect(b.held).toEqual([dir]);
    expect(fs.readdirSync(dir).every((n) => n.startsWith(MARKER_PREFIX))).toBe(true);
    await a.release();
    await a.release();
    expect(fs.existsSync(dir)).toBe(true);
    await b.release();
    expect(fs.existsSync(dir)).toBe(false);

    const c = await leasePlaceholders([dir]);
    fs.writeFileSync(path.join(dir, 'settings.json'), '{}'); // someone on the host made it real meanwhile
    await c.release();
    expect(fs.readdirSync(dir)).toEqual(['settings.json']);
    const d = await leasePlaceholders([dir]);
    expect(d).toMatchObject({ held: [], real: [dir] });
  });

  it('clears markers of processes that are gone', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    if (dead === undefined) throw new Error('no pid');
    const dir = p('.gatehouse');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, `${MARKER_PREFIX}${dead}-1`), '');
    const lease = await leasePlaceholders([dir]);
    expect(lease.held).toEqual([dir]);
    await lease.release();
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('holdGuards treats a placeholder another command holds as missing (and holds it too), and refuses a root it cannot guard', async () => {
    const first = await holdGuards([project], home);
    expect(first.placeholders).toEqual([p('.claude'), p('.gatehouse')]);
    const second = await holdGuards([project], home);
    expect(second.placeholders).toEqual(first.placeholders);
    expect(second.readOnly).toEqual([]);
    await first.release();
    await second.release();
    expect(fs.readdirSync(project)).toEqual([]);
    fs.symlinkSync(home, p('.claude'));
    await expect(holdGuards([project], home)).rejects.toThrow(
      /cannot keep the permission rules and git hooks read-only: .*\.claude/,
    );
    expect(fs.readdirSync(project)).toEqual(['.claude']); // nothing held, nothing left
  });
});
