import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NESTED_REPOSITORY_REASON } from '../../../src/main/core/checkpoints/changed-files';
import { CheckpointStore } from '../../../src/main/core/checkpoints/checkpoint-store';
import { runGit } from '../../../src/main/core/checkpoints/shadow-git';

// A folder with a .git of its own inside the project (a vendored clone, a fresh `git init`): never in a checkpoint,
// listed in each checkpoint's `skipped` with why, and left alone by a restore. Real files, real git.

let root: string;
let configDir: string;
let project: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-nested-')));
  configDir = path.join(root, 'config');
  project = path.join(root, 'project');
  fs.mkdirSync(path.join(project, 'vendor', 'lib'), { recursive: true });
  fs.writeFileSync(path.join(project, 'app.ts'), 'app\n');
  fs.writeFileSync(path.join(project, 'vendor', 'lib', 'lib.ts'), 'lib v1\n');
  git(path.join(project, 'vendor', 'lib'), 'init', '-q');
  git(path.join(project, 'vendor', 'lib'), 'add', '-A');
  git(path.join(project, 'vendor', 'lib'), 'commit', '-qm', 'v1');
  // A repository without a commit yet (git cannot even record it as a submodule).
  fs.mkdirSync(path.join(project, 'scratch'));
  fs.writeFileSync(path.join(project, 'scratch', 'notes.md'), 'notes\n');
  git(path.join(project, 'scratch'), 'init', '-q');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function treeOf(store: CheckpointStore, commit: string): Promise<string[]> {
  const out = await runGit({ gitDir: store.paths.gitDir, workTree: project }, ['ls-tree', '-r', '--name-only', commit]);
  return out.stdout.trim().split('\n').sort();
}

describe('repositories inside the project', () => {
  it('are left out of every checkpoint and listed with why; a restore leaves them as they are', async () => {
    const store = new CheckpointStore(configDir, project);
    const first = await store.create({ sessionId: 's', runId: 'r1', prompt: 'one' });
    expect(first.error).toBeUndefined();
    const skipped = [
      { path: 'scratch', reason: NESTED_REPOSITORY_REASON },
      { path: 'vendor/lib', reason: NESTED_REPOSITORY_REASON },
    ];
    expect(first.skipped).toEqual(skipped);
    expect(await treeOf(store, first.commit!)).toEqual(['app.ts']);
    await store.recordAfter(first.id);

    // Listed again by the next checkpoint (not only when first seen).
    const second = await store.create({ sessionId: 's', runId: 'r2', prompt: 'two' });
    expect(second.skipped).toEqual(skipped);

    fs.writeFileSync(path.join(project, 'app.ts'), 'app changed\n');
    fs.writeFileSync(path.join(project, 'vendor', 'lib', 'lib.ts'), 'lib v2\n');
    await store.recordAfter(second.id);
    const diff = await store.diff(first.id);
    expect(diff.files.map((f) => f.path)).toEqual(['app.ts']);
    await store.restore(first.id, { overwriteExternal: false, sessionId: 's' });
    expect(fs.readFileSync(path.join(project, 'app.ts'), 'utf8')).toBe('app\n');
    expect(fs.readFileSync(path.join(project, 'vendor', 'lib', 'lib.ts'), 'utf8')).toBe('lib v2\n');
    expect(git(path.join(project, 'vendor', 'lib'), 'status', '--porcelain')).toBe(' M lib.ts\n');
  });

  it('a repository an older checkpoint kept as a gitlink leaves the index at the next one, and is listed', async () => {
    fs.rmSync(path.join(project, 'scratch'), { recursive: true });
    const store = new CheckpointStore(configDir, project);
    await store.create({ sessionId: 's', runId: 'r1', prompt: 'one' });
    // What `git add -A` used to record for it.
    const head = git(path.join(project, 'vendor', 'lib'), 'rev-parse', 'HEAD').trim();
    await runGit({ gitDir: store.paths.gitDir, workTree: project }, [
      'update-index',
      '--add',
      '--cacheinfo',
      `160000,${head},vendor/lib`,
    ]);
    const next = await store.create({ sessionId: 's', runId: 'r2', prompt: 'two' });
    expect(next.skipped).toEqual([{ path: 'vendor/lib', reason: NESTED_REPOSITORY_REASON }]);
    expect(await treeOf(store, next.commit!)).toEqual(['app.ts']);
  });
});
