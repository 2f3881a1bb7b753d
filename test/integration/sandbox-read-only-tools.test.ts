/**
 * The read-only table still works in the read-only profile (real bubblewrap): each command prints exactly what it
 * prints outside the sandbox, and `git status` in front of a stale index (which git would refresh) neither fails
 * nor writes the index: it degrades quietly (GIT_OPTIONAL_LOCKS=0).
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox, type WrappedCommand } from '../../src/sandbox/types';
import { findOnPath } from '../../src/sandbox/find-binary';
import { makeWorld, noBwrapReason, type SandboxWorld } from '../unit/sandbox/support';

const rgMissing = (await findOnPath('rg')) === null;

function run(w: WrappedCommand): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve) => {
    // stdin closed, as run_command gives it (/dev/null): ripgrep then searches the folder, not its stdin.
    const child = spawn(w.file, w.args, { env: w.env, cwd: w.cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => void Promise.resolve(w.cleanup?.()).then(() => resolve({ exitCode: code, output })));
  });
}

const digest = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe.skipIf(noBwrapReason !== null)(
  `the read-only table in the read-only profile (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let sandbox: CommandSandbox;
    const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: world.project, encoding: 'utf8', env: gitEnv });

    beforeAll(async () => {
      world = makeWorld();
      const p = world.project;
      fs.mkdirSync(path.join(p, 'src', 'deep'), { recursive: true });
      fs.writeFileSync(path.join(p, 'notes.txt'), 'TODO: first\nsecond line\nthird line\n');
      fs.writeFileSync(path.join(p, 'src', 'app.js'), 'console.log(1); // TODO tidy\n');
      fs.writeFileSync(path.join(p, 'src', 'deep', 'util.js'), 'export const x = 1;\n');
      git('init', '-q', '-b', 'main');
      git('add', '.');
      git('-c', 'user.name=T', '-c', 'user.email=t@x', 'commit', '-qm', 'first');
      // A stale index: every file's stat data differs from what the index recorded (git status would refresh it),
      // and one file really changed (git diff has something to show).
      const past = new Date(Date.now() - 3_600_000);
      for (const f of ['notes.txt', 'src/app.js', 'src/deep/util.js']) fs.utimesSync(path.join(p, f), past, past);
      fs.appendFileSync(path.join(p, 'src', 'deep', 'util.js'), 'export const y = 2;\n');
      fs.utimesSync(path.join(p, 'src', 'deep', 'util.js'), past, past);
      const created = await createCommandSandbox(
        world.config({
          baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: world.home, LANG: 'C', ...gitEnv },
        }),
      );
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandbox = created;
    });
    afterAll(async () => {
      await sandbox?.dispose();
      world?.remove();
    });

    const table = [
      'git status',
      'git status --porcelain',
      'git diff',
      'git diff --stat',
      'git log --oneline',
      'git log -p -1',
      // (ripgrep searches files in parallel: sorted, its output is the same from run to run)
      ...(rgMissing ? [] : ['rg --sort path TODO', 'rg --sort path --files']),
      'ls -R',
      'ls -la src',
      'grep -R TODO .',
      'grep -rn TODO --exclude-dir=.git .',
      "find . -name '*.js'",
      'find . -path ./.git -prune -o -type f -print',
      'wc -l notes.txt src/app.js',
      'cat notes.txt',
      'head -n 2 notes.txt',
      'tail -n 1 notes.txt',
    ];

    it('every command prints what it prints outside the sandbox, and git leaves its stale index alone', async () => {
      const index = path.join(world.project, '.git', 'index');
      const before = { digest: digest(index), mtime: fs.statSync(index).mtimeMs };
      const inside = new Map<string, { exitCode: number | null; output: string }>();
      for (const command of table) inside.set(command, await run(await sandbox.wrapReadOnly(command)));
      // Nothing was written: the index is the stale one, no lock was left behind.
      expect(digest(index)).toBe(before.digest);
      expect(fs.statSync(index).mtimeMs).toBe(before.mtime);
      expect(fs.existsSync(`${index}.lock`)).toBe(false);
      for (const command of table) {
        const outside = await run(sandbox.wrapUnsandboxed(command));
        const got = inside.get(command)!;
        expect(got, command).toEqual(outside);
        expect(got.exitCode, command).toBe(0);
        expect(sandbox.describeViolation(got.output, got.exitCode, 'read-only'), command).toBeNull();
      }
      // The index was stale indeed: git outside the sandbox refreshed it.
      expect(digest(index)).not.toBe(before.digest);
      expect(inside.get('git status')!.output).toContain('modified:   src/deep/util.js');
      expect(inside.get('git diff')!.output).toContain('+export const y = 2;');
      expect(inside.get('ls -R')!.output).toContain('util.js');
    });
  },
);
