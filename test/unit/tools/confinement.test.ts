import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../../src/worker/tools/tool-set';
import { openConfinedForRead } from '../../../src/worker/tools/confined-fs';
import { openConfinedForWrite } from '../../../src/worker/tools/confined-write';
import { DO, makeSandbox, type Sandbox } from './helpers';

/**
 * Attacks on the execution-time path check: main approved a path, then something swapped a symlink in for the
 * file or a parent folder before the tool opened it (simulated by creating the symlink before execute).
 */
let sb: Sandbox;
const reg = createToolRegistry({ ripgrepPath: null });
beforeEach(() => {
  sb = makeSandbox();
  fs.writeFileSync(path.join(sb.outside, 'secret.txt'), 'TOP SECRET\n');
});
afterEach(() => sb.cleanup());

const run = (name: string, input: unknown) => reg.execute(name, input, sb.ctx(), DO);
const outsideFiles = () => fs.readdirSync(sb.outside).sort();
const OUTSIDE = /^path_outside_roots: .* outside the project and its additional directories; refusing$/;

describe('reads', () => {
  it('refuses a file symlink pointing outside', async () => {
    fs.symlinkSync(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'notes.txt'));
    const res = await run('read_file', { path: 'notes.txt' });
    expect(res.isError).toBe(true);
    expect(res.content).toMatch(OUTSIDE);
    expect(res.content).toContain(path.join(sb.outside, 'secret.txt'));
    expect(res.content).not.toContain('TOP SECRET');
  });

  it('refuses a parent folder swapped for a symlink pointing outside', async () => {
    fs.symlinkSync(sb.outside, path.join(sb.root, 'docs'));
    const res = await run('read_file', { path: 'docs/secret.txt' });
    expect(res.content).toMatch(OUTSIDE);
  });

  it('refuses .. traversal and absolute paths outside', async () => {
    for (const p of [
      '../outside/secret.txt',
      'sub/../../outside/secret.txt',
      path.join(sb.outside, 'secret.txt'),
      `${sb.root}/../outside/secret.txt`,
    ]) {
      fs.mkdirSync(path.join(sb.root, 'sub'), { recursive: true });
      const res = await run('read_file', { path: p });
      expect(res.content, p).toMatch(OUTSIDE);
    }
    const etc = await run('read_file', { path: '/etc/passwd' });
    expect(etc.content).toMatch(OUTSIDE);
  });

  it('follows a symlink that stays inside the project', async () => {
    sb.write('real.txt', 'real\n');
    fs.symlinkSync('real.txt', path.join(sb.root, 'alias.txt'));
    expect((await run('read_file', { path: 'alias.txt' })).content).toBe('     1\treal');
  });

  it('checks the opened descriptor, not the path string', async () => {
    fs.symlinkSync(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'x'));
    await expect(openConfinedForRead('x', sb.ctx())).rejects.toThrow(OUTSIDE);
    // inside an additional directory it is fine
    const f = await openConfinedForRead('x', sb.ctx({ additionalDirectories: [sb.outside] }));
    expect(f.realPath).toBe(path.join(sb.outside, 'secret.txt'));
    await f.handle.close();
  });
});

describe('writes', () => {
  it('refuses to write through a file symlink pointing outside, leaving the target intact', async () => {
    fs.symlinkSync(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'config.json'));
    const w = await run('write_file', { path: 'config.json', content: 'owned' });
    expect(w.content).toMatch(OUTSIDE);
    const e = await run('edit_file', { path: 'config.json', old_string: 'TOP', new_string: 'owned' });
    expect(e.content).toMatch(OUTSIDE);
    expect(fs.readFileSync(path.join(sb.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  });

  it('refuses a new file under a parent folder swapped for a symlink pointing outside', async () => {
    fs.symlinkSync(sb.outside, path.join(sb.root, 'build'));
    const res = await run('write_file', { path: 'build/evil.sh', content: 'rm -rf ~' });
    expect(res.content).toMatch(OUTSIDE);
    const deep = await run('write_file', { path: 'build/a/b/evil.sh', content: 'x' });
    expect(deep.content).toMatch(OUTSIDE);
    expect(outsideFiles()).toEqual(['secret.txt']);
  });

  it('refuses to write through a dangling symlink, even one that would land inside', async () => {
    fs.symlinkSync(path.join(sb.outside, 'new.txt'), path.join(sb.root, 'dangling-out'));
    fs.symlinkSync(path.join(sb.root, 'later.txt'), path.join(sb.root, 'dangling-in'));
    const out = await run('write_file', { path: 'dangling-out', content: 'x' });
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/dangling symbolic link; refusing/);
    expect((await run('write_file', { path: 'dangling-in', content: 'x' })).isError).toBe(true);
    expect(outsideFiles()).toEqual(['secret.txt']);
    expect(fs.existsSync(path.join(sb.root, 'later.txt'))).toBe(false);
  });

  it('refuses a dangling symlink as a parent folder', async () => {
    fs.symlinkSync(path.join(sb.outside, 'nodir'), path.join(sb.root, 'gen'));
    const res = await run('write_file', { path: 'gen/x.txt', content: 'x' });
    expect(res.isError).toBe(true);
    expect(outsideFiles()).toEqual(['secret.txt']);
  });

  it('refuses .. traversal and absolute paths outside, creating nothing', async () => {
    for (const p of [
      '../outside/new.txt',
      'a/b/../../../outside/new.txt',
      path.join(sb.outside, 'new.txt'),
      '/tmp/../' + path.relative('/', sb.outside) + '/new.txt',
    ]) {
      const res = await run('write_file', { path: p, content: 'x' });
      expect(res.content, p).toMatch(OUTSIDE);
    }
    expect(outsideFiles()).toEqual(['secret.txt']);
  });

  it('judges .. after a symlink where the kernel would (physically), like main does', async () => {
    // link -> outside/deep; link/../x is outside/x physically, even though "link/.." looks like the project root
    fs.mkdirSync(path.join(sb.outside, 'deep'));
    fs.symlinkSync(path.join(sb.outside, 'deep'), path.join(sb.root, 'link'));
    const res = await run('write_file', { path: 'link/../x.txt', content: 'x' });
    expect(res.content).toMatch(OUTSIDE);
    expect(fs.existsSync(path.join(sb.root, 'x.txt'))).toBe(false);
    expect(outsideFiles()).toEqual(['deep', 'secret.txt']);
  });

  it('allows .. that stays inside and symlinks that stay inside', async () => {
    fs.mkdirSync(path.join(sb.root, 'src'));
    expect((await run('write_file', { path: 'src/../top.txt', content: 'ok' })).content).toBe(
      'Created top.txt (2 bytes)',
    );
    fs.symlinkSync('src', path.join(sb.root, 'lib'));
    expect((await run('write_file', { path: 'lib/a.ts', content: 'a' })).content).toBe('Created src/a.ts (1 bytes)');
    sb.write('src/target.txt', 'v1\n');
    fs.symlinkSync('src/target.txt', path.join(sb.root, 'alias.txt'));
    expect((await run('edit_file', { path: 'alias.txt', old_string: 'v1', new_string: 'v2' })).isError).toBe(false);
    expect(sb.read('src/target.txt')).toBe('v2\n');
    expect(fs.lstatSync(path.join(sb.root, 'alias.txt')).isSymbolicLink()).toBe(true);
  });

  it('writes into an additional directory only when it is configured', async () => {
    const p = path.join(sb.outside, 'shared.txt');
    expect((await run('write_file', { path: p, content: 'x' })).content).toMatch(OUTSIDE);
    const ok = await reg.execute(
      'write_file',
      { path: p, content: 'shared' },
      sb.ctx({ additionalDirectories: [sb.outside] }),
      DO,
    );
    expect(ok.content).toBe(`Created ${p} (6 bytes)`);
  });

  it('creates no folders outside the roots while making parents', async () => {
    const res = await run('write_file', { path: '../outside/made/here/x.txt', content: 'x' });
    expect(res.content).toMatch(OUTSIDE);
    expect(outsideFiles()).toEqual(['secret.txt']);
  });

  it('never truncates the target before verifying it', async () => {
    fs.symlinkSync(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'victim'));
    await expect(openConfinedForWrite('victim', sb.ctx(), { mustExist: true })).rejects.toThrow(OUTSIDE);
    expect(fs.readFileSync(path.join(sb.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  });
});

describe('a swap between the check and the open', () => {
  const swapParent = () => {
    fs.rmSync(path.join(sb.root, 'inner'), { recursive: true });
    fs.symlinkSync(sb.outside, path.join(sb.root, 'inner'));
  };

  it('refuses a new file whose parent became a symlink, and removes the empty file it created out there', async () => {
    fs.mkdirSync(path.join(sb.root, 'inner'));
    await expect(
      openConfinedForWrite('inner/x.txt', sb.ctx(), { mustExist: false, beforeOpen: swapParent }),
    ).rejects.toThrow(OUTSIDE);
    expect(outsideFiles()).toEqual(['secret.txt']);
  });

  it('refuses an existing file whose parent became a symlink, without truncating what it opened', async () => {
    sb.write('inner/secret.txt', 'mine\n');
    await expect(
      openConfinedForWrite('inner/secret.txt', sb.ctx(), { mustExist: true, beforeOpen: swapParent }),
    ).rejects.toThrow(OUTSIDE);
    await expect(
      openConfinedForWrite('inner/secret.txt', sb.ctx(), { mustExist: false, beforeOpen: () => undefined }),
    ).rejects.toThrow(OUTSIDE);
    expect(fs.readFileSync(path.join(sb.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  });

  it('refuses a file that became a symlink (O_NOFOLLOW), new or existing', async () => {
    const swapFile = () => {
      fs.rmSync(path.join(sb.root, 'f.txt'), { force: true });
      fs.symlinkSync(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'f.txt'));
    };
    await expect(openConfinedForWrite('f.txt', sb.ctx(), { mustExist: false, beforeOpen: swapFile })).rejects.toThrow(
      /became a symbolic link while it was being opened; refusing/,
    );
    fs.rmSync(path.join(sb.root, 'f.txt'));
    sb.write('f.txt', 'mine');
    await expect(openConfinedForWrite('f.txt', sb.ctx(), { mustExist: true, beforeOpen: swapFile })).rejects.toThrow(
      /became a symbolic link/,
    );
    expect(fs.readFileSync(path.join(sb.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  });
});

describe('a live race', () => {
  it('never writes outside while another process keeps swapping a parent folder for a symlink', async () => {
    const { spawn } = await import('node:child_process');
    fs.mkdirSync(path.join(sb.root, 'inner'));
    // Swap project/inner between a real folder and a symlink to the outside folder, as fast as bash can.
    // Its own process group, so the kill below also stops an `mv` it is running (the folder is then left alone).
    const swapper = spawn(
      'bash',
      [
        '-c',
        'cd "$1"; while :; do mv inner inner.bak 2>/dev/null; ln -s "$2" inner 2>/dev/null; rm -f inner; mv inner.bak inner 2>/dev/null; done',
        'swap',
        sb.root,
        sb.outside,
      ],
      { stdio: 'ignore', detached: true },
    );
    const exited = new Promise<void>((resolve) => swapper.once('exit', () => resolve()));
    const results: string[] = [];
    try {
      for (let i = 0; i < Number(process.env.RACE_N ?? 50); i++) {
        const w = await run('write_file', { path: 'inner/x.txt', content: `w${i}` });
        results.push(w.content);
        const r = await run('read_file', { path: 'inner/x.txt' });
        expect(r.content).not.toContain('TOP SECRET');
        const e = await run('edit_file', { path: 'inner/x.txt', old_string: `w${i}`, new_string: `e${i}` });
        results.push(e.content);
      }
    } finally {
      if (swapper.pid !== undefined) process.kill(-swapper.pid, 'SIGKILL');
      await exited;
    }
    expect(outsideFiles()).toEqual(['secret.txt']);
    expect(fs.readFileSync(path.join(sb.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
    // a rename of the real folder mid-call may show the new name: still inside, still fine
    for (const c of results)
      expect(c).toMatch(
        /^(Created|Overwrote|Edited) inner(\.bak)?\/x\.txt|outside|not found|refusing|not a directory|old_string not found/,
      );
  });
});

describe('self-protection at open time', () => {
  const PROTECTED = /^protected_path: .* permission file; the agent may not write it$/;

  it('refuses writes to .gatehouse/ and the Claude Code settings files, directly or through a symlink', async () => {
    sb.write('.gatehouse/permissions.yaml', 'permissions: {}\n');
    sb.write('.claude/settings.json', '{}\n');
    sb.write('notes.txt', 'harmless\n');
    expect(
      (await run('write_file', { path: '.gatehouse/permissions.yaml', content: 'allow: ["Bash"]' })).content,
    ).toMatch(PROTECTED);
    expect((await run('write_file', { path: '.gatehouse/new.yaml', content: 'x' })).content).toMatch(PROTECTED);
    expect((await run('write_file', { path: '.claude/settings.local.json', content: '{}' })).content).toMatch(
      PROTECTED,
    );
    expect(
      (await run('edit_file', { path: '.claude/settings.json', old_string: '{}', new_string: '{"x":1}' })).content,
    ).toMatch(PROTECTED);
    // main approved notes.txt; a symlink to the rules was swapped in before the write
    fs.rmSync(path.join(sb.root, 'notes.txt'));
    fs.symlinkSync('.gatehouse/permissions.yaml', path.join(sb.root, 'notes.txt'));
    expect((await run('write_file', { path: 'notes.txt', content: 'allow: ["Bash"]' })).content).toMatch(PROTECTED);
    expect(sb.read('.gatehouse/permissions.yaml')).toBe('permissions: {}\n');
    expect(sb.read('.claude/settings.json')).toBe('{}\n');
    expect(fs.existsSync(path.join(sb.root, '.gatehouse/new.yaml'))).toBe(false);
    expect(fs.existsSync(path.join(sb.root, '.claude/settings.local.json'))).toBe(false);
    // reading them is fine
    expect((await run('read_file', { path: '.claude/settings.json' })).isError).toBe(false);
    // other files under .claude are not protected here (main's defaults ask for them)
    expect((await run('write_file', { path: '.claude/agents/a.md', content: 'x' })).isError).toBe(false);
  });

  it('honours extra protected paths from the context', async () => {
    const ctx = sb.ctx({ additionalDirectories: [sb.outside], protectedPaths: [sb.outside] });
    const res = await reg.execute('write_file', { path: path.join(sb.outside, 'config.yaml'), content: 'x' }, ctx, DO);
    expect(res.content).toMatch(PROTECTED);
    expect(outsideFiles()).toEqual(['secret.txt']);
  });
});
