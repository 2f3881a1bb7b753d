import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuleBuilderHandlers } from '../../../src/main/services/app/rule-builder/rule-builder-handlers';
import { listFolder } from '../../../src/main/services/app/rule-builder/folder-listing';
import { countRuleFiles } from '../../../src/main/services/app/rule-builder/file-count';
import { ApiChannels } from '../../../src/shared/api';
import { parseAtBoundary } from '../../../src/shared/validate';
import { rejection, removeTempDirs, rulesDirs, tempDir, write } from '../rules-helpers';

// The file tree's folder listing and the "matches N files" count: real folders, real links, real attacks.

describe('rule builder: listing a folder for the file tree', () => {
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let outside: string;
  const handlers = () =>
    createRuleBuilderHandlers({
      currentProject: () => project,
      configDir: home,
      env,
      trust: { isTrusted: () => Promise.resolve(true) },
    });

  beforeEach(() => {
    ({ home, project, env } = rulesDirs('rb-folders'));
    outside = tempDir('gh-rb-outside-');
    write(path.join(outside, 'secret.txt'), 'outside\n');
    write(path.join(project, 'src/a.ts'), 'a\n');
    write(path.join(project, 'src/lib/b.ts'), 'b\n');
    write(path.join(project, 'README.md'), 'r\n');
    fs.symlinkSync(outside, path.join(project, 'escape'));
    fs.symlinkSync(path.join(project, 'src'), path.join(project, 'src-link'));
  });
  afterEach(removeTempDirs);

  it('lists the project root (folders first) and a sub-folder; links are shown as links', async () => {
    const root = await handlers().listRuleFolder({ dir: '' });
    expect(root.roots).toEqual([{ path: project, kind: 'project' }]);
    expect(root.entries.map((e) => `${e.kind}:${e.name}`)).toEqual([
      'dir:src',
      'file:README.md',
      'link:escape',
      'link:src-link',
    ]);
    const src = await handlers().listRuleFolder({ root: project, dir: 'src' });
    expect(src.entries).toEqual([
      { name: 'lib', kind: 'dir' },
      { name: 'a.ts', kind: 'file' },
    ]);
  });

  it('refuses traversal, absolute paths, NUL and a root that is not the project or an additional directory', async () => {
    const h = handlers();
    expect((await rejection(h.listRuleFolder({ dir: '../' }))).message).toMatch(/leaves its root/);
    expect((await rejection(h.listRuleFolder({ dir: 'src/../../' }))).message).toMatch(/leaves its root/);
    expect((await rejection(h.listRuleFolder({ dir: outside }))).message).toMatch(/not an absolute path/);
    expect((await rejection(h.listRuleFolder({ dir: 'src\0x' }))).message).toMatch(/NUL/);
    const foreign = await rejection(h.listRuleFolder({ root: outside, dir: '' }));
    expect(foreign.code).toBe('FORBIDDEN');
    // A root spelled with a trailing slash or `..` is not one of the roots either.
    expect((await rejection(h.listRuleFolder({ root: `${project}/src/..`, dir: '' }))).code).toBe('FORBIDDEN');
  });

  it('never follows a symbolic link, whether it leads out of the project or inside it', async () => {
    const h = handlers();
    const escape = await rejection(h.listRuleFolder({ dir: 'escape' }));
    expect(escape.code).toBe('FORBIDDEN');
    expect(escape.message).toMatch(/symbolic link/);
    expect((await rejection(h.listRuleFolder({ dir: 'escape/' }))).code).toBe('FORBIDDEN');
    expect((await rejection(h.listRuleFolder({ dir: 'src-link/lib' }))).code).toBe('FORBIDDEN');
  });

  it('a folder whose real path is elsewhere (a link higher up) is refused by the check after the listing', async () => {
    // Every segment below the root is lstat'ed; the real path check catches what lies above them (and a folder
    // swapped for a link between the checks and the listing).
    const parent = tempDir('gh-rb-linkroot-');
    fs.symlinkSync(path.dirname(project), path.join(parent, 'up'));
    const viaLink = path.join(parent, 'up', path.basename(project));
    const err = await rejection(listFolder(viaLink, 'src'));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toMatch(/leads to/);
  });

  it('lists an additional directory of a trusted project, and no folder when none is open', async () => {
    const extra = tempDir('gh-rb-extra-');
    write(path.join(extra, 'lib/x.js'), 'x\n');
    write(
      path.join(project, '.gatehouse/settings.local.yaml'),
      `permissions:\n  additionalDirectories: ['${extra}']\n`,
    );
    const h = handlers();
    const listed = await h.listRuleFolder({ root: extra, dir: 'lib' });
    expect(listed.roots).toEqual([
      { path: project, kind: 'project' },
      { path: extra, kind: 'additional' },
    ]);
    expect(listed.entries).toEqual([{ name: 'x.js', kind: 'file' }]);
    const none = createRuleBuilderHandlers({
      currentProject: () => null,
      configDir: home,
      env,
      trust: { isTrusted: () => Promise.resolve(true) },
    });
    expect((await rejection(none.listRuleFolder({ dir: '' }))).message).toMatch(/no project is open/);
  });

  it('an untrusted project cannot add an additional directory to the tree (as the engine does not load it)', async () => {
    const extra = tempDir('gh-rb-extra-');
    write(path.join(project, '.gatehouse/settings.yaml'), `permissions:\n  additionalDirectories: ['${extra}']\n`);
    const untrusted = createRuleBuilderHandlers({
      currentProject: () => project,
      configDir: home,
      env,
      trust: { isTrusted: () => Promise.resolve(false) },
    });
    expect((await untrusted.listRuleFolder({ dir: '' })).roots).toEqual([{ path: project, kind: 'project' }]);
    expect((await rejection(untrusted.listRuleFolder({ root: extra, dir: '' }))).code).toBe('FORBIDDEN');
  });

  it('the contract refuses a malformed request before any handler runs', () => {
    expect(() => parseAtBoundary(ApiChannels.listRuleFolder.request, { dir: 1 }, 'listRuleFolder')).toThrow();
    expect(() => parseAtBoundary(ApiChannels.listRuleFolder.request, { dir: '', x: 1 }, 'listRuleFolder')).toThrow();
    expect(() => parseAtBoundary(ApiChannels.countRuleFiles.request, { rule: '' }, 'countRuleFiles')).toThrow();
  });
});

describe('rule builder: how many files a path rule matches', () => {
  let home: string;
  let project: string;

  beforeEach(() => {
    ({ home, project } = rulesDirs('rb-count'));
    write(path.join(project, 'src/a.ts'), '');
    write(path.join(project, 'src/b.ts'), '');
    write(path.join(project, 'src/lib/c.ts'), '');
    write(path.join(project, 'src/lib/d.js'), '');
    write(path.join(project, 'test/e.ts'), '');
    write(path.join(project, '.env'), '');
    write(path.join(project, 'config/.env'), '');
  });
  afterEach(removeTempDirs);

  const count = (rule: string, extra: Partial<Parameters<typeof countRuleFiles>[1]> = {}) =>
    countRuleFiles(rule, { projectRoot: project, roots: [project], home, ...extra });

  it('counts with the engine’s pattern semantics: folder and below, one file, a glob by name anywhere', async () => {
    expect(await count('Read(src/**)')).toMatchObject({ count: 4, complete: true });
    expect(await count('Edit(./src/a.ts)')).toEqual({ count: 1, complete: true, examples: ['src/a.ts'] });
    expect(await count('Read(src/**/*.ts)')).toMatchObject({ count: 3, complete: true });
    expect(await count('Read(*.ts)')).toMatchObject({ count: 4, complete: true });
    // No slash: that name in any folder.
    expect(await count('Read(.env)')).toMatchObject({ count: 2 });
    expect(await count('Read(./missing/**)')).toEqual({ count: 0, complete: true, examples: [] });
  });

  it('stops at its bound and says the count is a lower bound', async () => {
    for (let i = 0; i < 50; i++) write(path.join(project, `many/f${i}.txt`), '');
    const bounded = await count('Read(many/**)', { maxEntries: 10 });
    expect(bounded.complete).toBe(false);
    expect(bounded.count).toBeLessThanOrEqual(10);
    expect((await count('Read(many/**)')).count).toBe(50);
    const shallow = await count('Read(**)', { maxDepth: 1 });
    expect(shallow.complete).toBe(false);
  });

  it('never counts through a link (a file reached through one is judged where it really is)', async () => {
    const outside = tempDir('gh-rb-count-out-');
    for (let i = 0; i < 3; i++) write(path.join(outside, `o${i}.ts`), '');
    fs.symlinkSync(outside, path.join(project, 'linked'));
    fs.symlinkSync(path.join(outside, 'o0.ts'), path.join(project, 'src/link.ts'));
    expect((await count('Read(linked/**)')).count).toBe(0);
    expect((await count('Read(src/*.ts)')).count).toBe(2);
  });

  it('refuses a rule that is not a path rule, or does not parse', async () => {
    expect((await rejection(count('Bash(ls)'))).message).toMatch(/not a path rule/);
    expect((await rejection(count('Read(src/**'))).message).toMatch(/invalid rule/);
  });
});
