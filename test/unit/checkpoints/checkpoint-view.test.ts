import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangedFile } from '../../../src/shared/checkpoint-contract';
import { CheckpointStore } from '../../../src/main/core/checkpoints/checkpoint-store';

// What a checkpoint covers is decided by its own view (the ignore rules when it was taken), whoever changes the rules
// later; who changed a file is decided by when it changed. The store directly: real files, real git.

let root: string;
let configDir: string;
let project: string;
let savedHome: string | undefined;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-view-')));
  configDir = path.join(root, 'config');
  project = path.join(root, 'project');
  fs.mkdirSync(configDir);
  fs.mkdirSync(path.join(project, 'deps'), { recursive: true });
  fs.mkdirSync(path.join(project, 'src'));
  fs.mkdirSync(path.join(root, 'home'));
  // No global excludes of the machine's person in the way.
  savedHome = process.env.HOME;
  process.env.HOME = path.join(root, 'home');
});
afterEach(() => {
  process.env.HOME = savedHome;
  fs.rmSync(root, { recursive: true, force: true });
});

const file = (rel: string): string => path.join(project, rel);
const read = (rel: string): string => fs.readFileSync(file(rel), 'utf8');
const lines = (files: ChangedFile[]): string[] =>
  files.map((f) => `${f.action} ${f.path}${f.external ? ' (outside)' : ''}`).sort();

function seed(): CheckpointStore {
  fs.writeFileSync(file('src/app.js'), 'app v1\n');
  fs.writeFileSync(file('src/util.js'), 'util v1\n');
  fs.writeFileSync(file('deps/lib.js'), 'old dependency\n');
  fs.writeFileSync(file('.gitignore'), 'node_modules/\n');
  return new CheckpointStore(configDir, project);
}

describe('a checkpoint\u2019s view', () => {
  it('a folder the agent ignores after the checkpoint is still restored, with what it created there', async () => {
    const store = seed();
    const entry = await store.create({ sessionId: 's', runId: 'r1', prompt: 'work' });
    expect(entry.view).toMatch(/^[0-9a-f]{64}$/);
    // The agent's run: ignores src/, rewrites one file, deletes another, plants a third.
    fs.writeFileSync(file('.gitignore'), 'node_modules/\nsrc/\n');
    fs.writeFileSync(file('src/app.js'), 'hacked\n');
    fs.rmSync(file('src/util.js'));
    fs.writeFileSync(file('src/planted.js'), 'planted\n');
    await store.recordAfter(entry.id);

    const diff = await store.diff(entry.id);
    expect(lines(diff.files)).toEqual([
      'delete src/planted.js',
      'recreate src/util.js',
      'restore .gitignore',
      'restore src/app.js',
    ]);
    expect(diff.patch).toContain('-hacked\n+app v1');
    const result = await store.restore(entry.id, { overwriteExternal: false, sessionId: 's' });
    expect(result.kept).toEqual([]);
    expect(read('src/app.js')).toBe('app v1\n');
    expect(read('src/util.js')).toBe('util v1\n');
    expect(fs.existsSync(file('src/planted.js'))).toBe(false);
    expect(read('.gitignore')).toBe('node_modules/\n');
  });

  it('a folder the person ignores after the run, and what they put there: listed as theirs and kept', async () => {
    const store = seed();
    const entry = await store.create({ sessionId: 's', runId: 'r1', prompt: 'work' });
    fs.writeFileSync(file('src/app.js'), 'agent v2\n');
    await store.recordAfter(entry.id);
    // After the run: the person ignores deps/ and installs a newer dependency.
    fs.writeFileSync(file('.gitignore'), 'node_modules/\ndeps/\n');
    fs.rmSync(file('deps/lib.js'));
    fs.writeFileSync(file('deps/new.js'), 'new dependency\n');

    const diff = await store.diff(entry.id);
    expect(lines(diff.files)).toEqual([
      'delete deps/new.js (outside)',
      'recreate deps/lib.js (outside)',
      'restore .gitignore (outside)',
      'restore src/app.js',
    ]);
    await store.restore(entry.id, { overwriteExternal: false, sessionId: 's' });
    expect(read('src/app.js')).toBe('app v1\n');
    expect(read('deps/new.js')).toBe('new dependency\n');
    expect(fs.existsSync(file('deps/lib.js'))).toBe(false);
    expect(read('.gitignore')).toBe('node_modules/\ndeps/\n');
  });

  it('files its rules ignored are never captured, restored or deleted, even after they are un-ignored', async () => {
    const store = seed();
    fs.writeFileSync(file('.gitignore'), 'node_modules/\n.env\ncache/\n');
    fs.writeFileSync(file('.env'), 'TOKEN=one\n');
    fs.mkdirSync(file('node_modules/dep'), { recursive: true });
    fs.writeFileSync(file('node_modules/dep/index.js'), 'dep v1\n');
    const entry = await store.create({ sessionId: 's', runId: 'r1', prompt: 'work' });
    // The agent un-ignores everything, changes the ignored files and creates files in a folder that was ignored.
    fs.writeFileSync(file('.gitignore'), '');
    fs.writeFileSync(file('.env'), 'TOKEN=two\n');
    fs.writeFileSync(file('node_modules/dep/index.js'), 'dep v2\n');
    fs.mkdirSync(file('cache'));
    fs.writeFileSync(file('cache/new.bin'), 'new\n');
    await store.recordAfter(entry.id);
    const git = execFileSync('git', ['-C', store.paths.gitDir, 'ls-tree', '-r', '--name-only', entry.commit!], {
      encoding: 'utf8',
    });
    expect(git.split('\n').filter(Boolean).sort()).toEqual(['.gitignore', 'deps/lib.js', 'src/app.js', 'src/util.js']);

    const diff = await store.diff(entry.id);
    expect(lines(diff.files)).toEqual(['restore .gitignore']);
    await store.restore(entry.id, { overwriteExternal: true, sessionId: 's' });
    expect(read('.gitignore')).toBe('node_modules/\n.env\ncache/\n');
    expect(read('.env')).toBe('TOKEN=two\n');
    expect(read('node_modules/dep/index.js')).toBe('dep v2\n');
    expect(read('cache/new.bin')).toBe('new\n');
    // A checkpoint taken under the new rules covers them.
    fs.writeFileSync(file('.gitignore'), '');
    const later = await store.create({ sessionId: 's', runId: 'r2', prompt: 'later' });
    fs.writeFileSync(file('.env'), 'TOKEN=three\n');
    await store.recordAfter(later.id);
    expect(lines((await store.diff(later.id)).files)).toEqual(['restore .env']);
  });

  it('a file changed in a later run while a later view hid it counts as changed outside the agent', async () => {
    const store = seed();
    const first = await store.create({ sessionId: 's', runId: 'r1', prompt: 'one' });
    // Run 1: the agent ignores src/ and rewrites app.js; run 2 (its view ignores src/) rewrites util.js too.
    fs.writeFileSync(file('.gitignore'), 'node_modules/\nsrc/\n');
    fs.writeFileSync(file('src/app.js'), 'run one\n');
    await store.recordAfter(first.id);
    const second = await store.create({ sessionId: 's', runId: 'r2', prompt: 'two' });
    expect(second.view).not.toBe(first.view);
    fs.writeFileSync(file('src/util.js'), 'run two\n');
    await store.recordAfter(second.id);

    // Run 1's change was seen by run 1's view: the agent's. Run 2's was not seen by anyone: nobody can say whose.
    expect(lines((await store.diff(first.id)).files)).toEqual([
      'restore .gitignore',
      'restore src/app.js',
      'restore src/util.js (outside)',
    ]);
    // The second checkpoint does not cover src/ at all.
    expect(lines((await store.diff(second.id)).files)).toEqual([]);
    const result = await store.restore(first.id, { overwriteExternal: false, sessionId: 's' });
    expect(result.kept.map((f) => f.path)).toEqual(['src/util.js']);
    expect(read('src/app.js')).toBe('app v1\n');
    expect(read('src/util.js')).toBe('run two\n');
  });

  it('.git/info/exclude is noted like a file: the agent\u2019s change is put back, a missing .git/info is made', async () => {
    const store = seed();
    execFileSync('git', ['init', '-q'], { cwd: project });
    fs.writeFileSync(file('.git/info/exclude'), '# mine\n');
    const entry = await store.create({ sessionId: 's', runId: 'r1', prompt: 'one' });
    expect(entry.exclude).toMatch(/^[0-9a-f]{64}$/);
    // The agent hides src/ through the repository's own exclude file, then replaces it with a link.
    fs.appendFileSync(file('.git/info/exclude'), 'src/\n');
    fs.writeFileSync(file('src/app.js'), 'hacked\n');
    await store.recordAfter(entry.id);
    const diff = await store.diff(entry.id);
    expect(lines(diff.files)).toEqual(['restore .git/info/exclude', 'restore src/app.js']);
    expect(diff.patch).toContain('diff --git a/.git/info/exclude b/.git/info/exclude');
    expect(diff.patch).toContain('-src/');
    const outsideFile = path.join(root, 'outside.txt');
    fs.writeFileSync(outsideFile, 'not the project\n');
    fs.rmSync(file('.git/info/exclude'));
    fs.symlinkSync(outsideFile, file('.git/info/exclude'));
    await store.restore(entry.id, { overwriteExternal: true, sessionId: 's' });
    expect(fs.lstatSync(file('.git/info/exclude')).isFile()).toBe(true);
    expect(read('.git/info/exclude')).toBe('# mine\n');
    expect(fs.readFileSync(outsideFile, 'utf8')).toBe('not the project\n');
    expect(read('src/app.js')).toBe('app v1\n');
  });

  it('a checkpoint taken before views were kept is judged by today\u2019s rules, as before', async () => {
    const store = seed();
    const entry = await store.create({ sessionId: 's', runId: 'r1', prompt: 'work' });
    const index = JSON.parse(fs.readFileSync(store.paths.indexFile, 'utf8')) as { entries: Record<string, unknown>[] };
    delete index.entries[0]!.view;
    delete index.entries[0]!.exclude;
    fs.writeFileSync(store.paths.indexFile, JSON.stringify(index));
    fs.writeFileSync(file('.gitignore'), 'node_modules/\ndeps/\n');
    fs.writeFileSync(file('src/app.js'), 'v2\n');
    fs.rmSync(file('deps/lib.js'));
    await store.recordAfter(entry.id);
    expect(lines((await store.diff(entry.id)).files)).toEqual(['restore .gitignore', 'restore src/app.js']);
  });
});
