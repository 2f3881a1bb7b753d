import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../src/main/core/checkpoints/checkpoint-store';
import { writeCheckpointRef } from '../../../src/main/core/checkpoints/shadow-git';

// Each git process a checkpoint starts forks the process that takes it (the desktop app's main process): a checkpoint
// starts no git it can do without. Its ref is a file written whole; a tree already written from an unchanged index is
// not written again. Real files, real git: every git the store starts goes through a logging `git` first on PATH.

let root: string;
let configDir: string;
let project: string;
let gitLog: string;
let savedPath: string | undefined;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-git-')));
  configDir = path.join(root, 'config');
  project = path.join(root, 'project');
  const bin = path.join(root, 'bin');
  for (const d of [configDir, project, bin]) fs.mkdirSync(d);
  fs.writeFileSync(path.join(project, 'a.txt'), 'a\n');
  gitLog = path.join(root, 'git.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  // The subcommand: the first argument after the `-c NAME=VALUE` pairs.
  fs.writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh\nfor a in "$@"; do case "$a" in -c|*=*) ;; *) echo "$a" >> '${gitLog}'; break;; esac; done\nexec '${realGit}' "$@"\n`,
    { mode: 0o755 },
  );
  savedPath = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
});
afterEach(() => {
  process.env.PATH = savedPath;
  fs.rmSync(root, { recursive: true, force: true });
});

/** The git subcommands started since the last call. */
function gitRuns(): string[] {
  const runs = fs.existsSync(gitLog) ? fs.readFileSync(gitLog, 'utf8').split('\n').filter(Boolean) : [];
  fs.rmSync(gitLog, { force: true });
  return runs;
}

function git(store: CheckpointStore, ...args: string[]): string {
  return execFileSync('git', args, {
    encoding: 'utf8',
    env: { PATH: savedPath, GIT_DIR: store.paths.gitDir, GIT_WORK_TREE: project },
  }).trim();
}

describe('the git processes of a checkpoint', () => {
  it('its ref is written without git, and git reads it as its own', async () => {
    const store = new CheckpointStore(configDir, project);
    const entry = await store.create({ sessionId: 's', runId: 'r1', prompt: 'first' });
    expect(entry.error).toBeUndefined();
    expect(gitRuns()).not.toContain('update-ref');
    expect(git(store, 'rev-parse', '--verify', `refs/checkpoints/${entry.id}`)).toBe(entry.commit);
    expect(git(store, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/checkpoints/')).toBe(
      `refs/checkpoints/${entry.id} ${entry.commit}`,
    );
    expect(git(store, 'show', `${entry.commit}:a.txt`)).toBe('a');
    // The ref keeps the commit through a prune of other checkpoints (git gc packs and prunes).
    const old = await store.create({ sessionId: 'gone', runId: 'r0', prompt: 'old' });
    expect(await store.deleteSession('gone')).toBe(1);
    expect(git(store, 'rev-parse', '--verify', `refs/checkpoints/${entry.id}`)).toBe(entry.commit);
    expect(() => git(store, 'rev-parse', '--verify', '--quiet', `refs/checkpoints/${old.id}`)).toThrow();
  });

  it('a snapshot of an index that did not change reuses its tree; any change of the files is still in the next one', async () => {
    const store = new CheckpointStore(configDir, project);
    const first = await store.create({ sessionId: 's', runId: 'r1', prompt: 'first' });
    expect(gitRuns()).toContain('write-tree');
    // The run changed nothing: its end is recorded without writing the same tree again.
    await store.recordAfter(first.id);
    expect(gitRuns()).not.toContain('write-tree');
    const afterTree = (await store.list())[0]!.afterTree;
    expect(afterTree).toBe(git(store, 'rev-parse', `${first.commit}^{tree}`));

    // A change of the same size, at once: the next checkpoint holds it.
    fs.writeFileSync(path.join(project, 'a.txt'), 'b\n');
    const second = await store.create({ sessionId: 's', runId: 'r2', prompt: 'second' });
    expect(gitRuns()).toContain('write-tree');
    expect(git(store, 'show', `${second.commit}:a.txt`)).toBe('b');

    // The shadow index changed by another process (another window's store): its tree is written again.
    git(store, 'update-index', '--force-remove', 'a.txt');
    const third = await store.create({ sessionId: 's', runId: 'r3', prompt: 'third' });
    expect(gitRuns()).toContain('write-tree');
    expect(git(store, 'show', `${third.commit}:a.txt`)).toBe('b');
  });

  it('a ref name that is not a checkpoint id, or a commit that is not an object id, is refused; nothing is written', async () => {
    const repo = { gitDir: path.join(root, 'shadow'), workTree: project };
    const commit = 'a'.repeat(40);
    for (const id of ['../../HEAD', 'abc', 'ABCDEF012345', '0123456789ab/x'])
      await expect(writeCheckpointRef(repo, id, commit)).rejects.toThrow(/not a checkpoint id/);
    await expect(writeCheckpointRef(repo, '0123456789ab', 'HEAD')).rejects.toThrow(/no commit id/);
    expect(fs.existsSync(repo.gitDir)).toBe(false);
    await writeCheckpointRef(repo, '0123456789ab', commit);
    expect(fs.readFileSync(path.join(repo.gitDir, 'refs', 'checkpoints', '0123456789ab'), 'utf8')).toBe(`${commit}\n`);
  });
});
