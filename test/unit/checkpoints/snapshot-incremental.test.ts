import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentView } from '../../../src/main/core/checkpoints/ignore-rules';
import { RulesStore } from '../../../src/main/core/checkpoints/rules-store';
import { runGit, type ShadowGit } from '../../../src/main/core/checkpoints/shadow-git';
import { prepareRepo, snapshotTree, type Snapshot } from '../../../src/main/core/checkpoints/snapshot';

// A later checkpoint looks only at what changed since the last one (the shadow index keeps its files): whatever the
// project went through, it must hold exactly what a checkpoint taken from nothing holds. Real files, real git.

let root: string;
let project: string;
let outside: string;
let repo: ShadowGit;
const LIMITS = { maxFileBytes: 2000, maxFiles: 10_000 };

beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-incr-')));
  project = path.join(root, 'project');
  outside = path.join(root, 'outside');
  fs.mkdirSync(project);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'big.bin'), Buffer.alloc(5000, 7));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside\n');
  repo = { gitDir: path.join(root, 'config', 'repo'), workTree: project };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A checkpoint taken from an empty index: every file looked at (what the first checkpoint does). */
async function fromNothing(viewFile: string): Promise<Snapshot> {
  const scratch = path.join(root, `scratch-${Math.random().toString(16).slice(2)}`);
  try {
    return await snapshotTree(repo, LIMITS, viewFile, scratch);
  } finally {
    fs.rmSync(scratch, { force: true });
  }
}

async function treeEntries(tree: string): Promise<string[]> {
  const out = await runGit(repo, ['ls-tree', '-r', '-z', tree]);
  return out.stdout.split('\0').filter(Boolean).sort();
}

/** The next checkpoint, checked against one taken from nothing. */
async function snapshotMatches(label: string): Promise<Snapshot & { ok: true }> {
  // Today's rules, as each checkpoint takes them.
  const view = await currentView(repo, new RulesStore(path.join(root, 'config', 'rules')));
  const next = await snapshotTree(repo, LIMITS, view.file);
  const fresh = await fromNothing(view.file);
  if (!next.ok || !fresh.ok) throw new Error(`${label}: ${JSON.stringify({ next, fresh })}`);
  expect(await treeEntries(next.tree), label).toEqual(await treeEntries(fresh.tree));
  expect(next.skipped, label).toEqual(fresh.skipped);
  expect(next.files, label).toBe(fresh.files);
  return next;
}

const p = (rel: string) => path.join(project, rel);
function write(rel: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(p(rel)), { recursive: true });
  fs.writeFileSync(p(rel), content);
}

describe('later checkpoints look only at what changed', () => {
  it(
    'every kind of change between checkpoints ends up as a checkpoint from nothing would have it',
    { timeout: 120_000 },
    async () => {
      write('a.txt', 'a\n');
      write('b.txt', 'b\n');
      write('dir/c.txt', 'c\n');
      write('swap/inner.txt', 'inner\n');
      write('grow.txt', 'small\n');
      write('.gitignore', 'ignored/\n*.log\n');
      write('ignored/x.txt', 'x\n');
      await prepareRepo(repo);
      const first = await snapshotMatches('first');
      expect(first.skipped).toEqual([]);

      fs.writeFileSync(p('a.txt'), 'A\n'); // same size, same second
      fs.rmSync(p('b.txt'));
      write('dir/d.txt', 'd\n');
      write('new/deep/e.txt', 'e\n');
      write('grow.txt', Buffer.alloc(3000, 1)); // past the limit: leaves the checkpoint
      write('debug.log', 'log\n');
      write('ignored/y.txt', 'y\n');
      fs.rmSync(p('swap'), { recursive: true });
      fs.symlinkSync(outside, p('swap')); // a folder swapped for a link to outside: never followed
      fs.symlinkSync(path.join(outside, 'big.bin'), p('link-to-big'));
      write(':(top)weird*.txt', 'a name git would read as a pattern\n');
      write('nested/inner.txt', 'a repository of its own\n');
      execFileSync('git', ['init', '-q'], { cwd: p('nested') });
      const second = await snapshotMatches('second');
      expect(second.skipped.map((s) => s.path)).toEqual(['grow.txt', 'nested']);
      const entries = await treeEntries(second.tree);
      expect(entries.some((e) => e.endsWith('\tswap') && e.startsWith('120000 '))).toBe(true);
      expect(entries.some((e) => e.includes('secret') || e.includes('big.bin\t') || e.includes('ignored/'))).toBe(
        false,
      );
      expect(entries.some((e) => e.endsWith('\t:(top)weird*.txt'))).toBe(true);

      // The large file stays listed while it is large; a file turned into a folder; the link back to a folder.
      fs.rmSync(p('dir/c.txt'));
      write('dir/c.txt/inside.txt', 'now a folder\n');
      fs.rmSync(p('swap'));
      write('swap/inner.txt', 'inner again\n');
      const third = await snapshotMatches('third');
      expect(third.skipped.map((s) => s.path)).toEqual(['grow.txt', 'nested']);
      write('grow.txt', 'small again\n');
      fs.rmSync(p('nested/.git'), { recursive: true }); // an ordinary folder again: its files come in
      expect((await snapshotMatches('fourth')).skipped).toEqual([]);
      // A folder the checkpoints held, ignored since (node_modules added to .gitignore): it leaves them.
      write('.gitignore', 'ignored/\n*.log\ndir/\n');
      const fifth = await snapshotMatches('fifth');
      expect((await treeEntries(fifth.tree)).some((e) => e.includes('\tdir/'))).toBe(false);
      write('.gitignore', 'ignored/\n*.log\n'); // and back in once it is no longer ignored
      expect((await treeEntries((await snapshotMatches('sixth')).tree)).some((e) => e.includes('\tdir/'))).toBe(true);
    },
  );

  it(
    'random changes (seeded): each later checkpoint equals one taken from nothing; the project’s .git is untouched',
    { timeout: 120_000 },
    async () => {
      const seed = Number(process.env.CKPT_SEED ?? Date.now() % 1_000_000);
      console.log(`snapshot-incremental seed: ${seed} (CKPT_SEED=${seed} to repeat)`);
      let state = seed;
      const rand = (n: number): number => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return state % n;
      };
      execFileSync('git', ['init', '-q'], { cwd: project });
      write('.gitignore', 'tmp/\n');
      write('keep.txt', 'keep\n');
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], { cwd: project });
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x'], { cwd: project });
      const names = ['a.txt', 'b.txt', 'd1/c.txt', 'd1/d2/e.txt', 'd3/f.txt', 'tmp/t.txt', 'g*.txt', 'h i.txt'];
      await prepareRepo(repo);
      const gitBefore = fs.readFileSync(path.join(project, '.git', 'index'));
      for (let step = 0; step < 15; step++) {
        // Now and then the ignore rules change: a folder the checkpoints held is ignored, or no longer.
        if (rand(4) === 0) write('.gitignore', rand(2) ? 'tmp/\nd1/\n' : 'tmp/\n');
        for (let op = 0; op < 1 + rand(4); op++) {
          const name = names[rand(names.length)]!;
          const target = p(name);
          const kind = rand(6);
          fs.rmSync(target, { recursive: true, force: true });
          if (kind === 0) continue; // deleted
          if (kind === 5) {
            fs.mkdirSync(path.dirname(target), { recursive: true });
            fs.symlinkSync(rand(2) ? outside : 'keep.txt', target);
          } else write(name, kind === 4 ? Buffer.alloc(2500 + rand(100), 1) : `${name} ${rand(1000)}\n`);
        }
        await snapshotMatches(`seed ${seed}, step ${step}`);
      }
      expect(fs.readFileSync(path.join(project, '.git', 'index'))).toEqual(gitBefore);
      expect(fs.readdirSync(outside).sort()).toEqual(['big.bin', 'secret.txt']);
    },
  );
});
