import * as fs from 'node:fs';
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox } from '../../src/sandbox/types';
import { makeWorld, noBwrapReason, type SandboxWorld } from '../unit/sandbox/support';

interface PtyRun {
  term: pty.IPty;
  chunks: string[];
  exited: Promise<{ exitCode: number; signal: number | undefined }>;
  output(): string;
}

async function spawnInPty(sandbox: CommandSandbox, command: string): Promise<PtyRun> {
  const w = await sandbox.wrap(command);
  const term = pty.spawn(w.file, w.args, { name: 'xterm-256color', cols: 120, rows: 30, cwd: w.cwd, env: w.env });
  const chunks: string[] = [];
  term.onData((d) => chunks.push(d));
  const exited = new Promise<{ exitCode: number; signal: number | undefined }>((resolve) =>
    term.onExit((e) => {
      void (w.cleanup?.() ?? Promise.resolve()).then(() => resolve({ exitCode: e.exitCode, signal: e.signal }));
    }),
  );
  return { term, chunks, exited, output: () => chunks.join('') };
}

/** Resolves once the output holds `text`, checked as each chunk arrives. */
function outputShows(run: PtyRun, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (run.output().includes(text)) return resolve();
    const watch = run.term.onData(() => {
      if (!run.output().includes(text)) return;
      watch.dispose();
      resolve();
    });
  });
}

/** Host pids whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // gone already
    }
  }
  return found;
}

describe.skipIf(noBwrapReason !== null)(
  `sandboxed commands in a pty (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let sandbox: CommandSandbox;

    beforeAll(async () => {
      world = makeWorld();
      const created = await createCommandSandbox(world.config());
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandbox = created;
    });
    afterAll(async () => {
      await sandbox?.dispose();
      world?.remove();
    });

    it('streams output, sees a terminal and reports the exit code', async () => {
      const run = await spawnInPty(
        sandbox,
        'echo first; [ -t 1 ] && echo is-a-tty; tput cols 2>/dev/null || stty size; sleep 0.3; echo second; exit 3',
      );
      await outputShows(run, 'first');
      // the first line arrived while the command was still running
      expect(run.output()).not.toContain('second');
      const { exitCode } = await run.exited;
      expect(exitCode).toBe(3);
      expect(run.output()).toContain('is-a-tty');
      expect(run.output()).toMatch(/\b120\b/);
      expect(run.output()).toContain('second');
    });

    it('reports a failing command blocked by the sandbox through the pty', async () => {
      const run = await spawnInPty(sandbox, `touch ${world.outside}/nope`);
      const { exitCode } = await run.exited;
      expect(exitCode).not.toBe(0);
      expect(sandbox.describeViolation(run.output(), exitCode)).toBe(
        `blocked by sandbox: write outside the project: ${world.outside}/nope`,
      );
    });

    it('cancel (signals to the pty process group) kills the whole tree, background jobs included', async () => {
      const marker = `${Date.now() % 100000}.${process.pid}`;
      const run = await spawnInPty(sandbox, `sleep 1${marker} & (sleep 2${marker} &) ; echo ready; wait`);
      await outputShows(run, 'ready');
      await expect.poll(() => processesWith(marker).length).toBeGreaterThanOrEqual(2);
      const pgid = run.term.pid; // the pty child (bwrap) leads its session and process group
      process.kill(-pgid, 'SIGTERM');
      const killer = setTimeout(() => {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 2_000);
      await run.exited;
      clearTimeout(killer);
      await expect.poll(() => processesWith(marker)).toEqual([]);
    });

    it('Ctrl-C through the terminal stops the command and everything it started', async () => {
      const marker = `${(Date.now() + 7) % 100000}.${process.pid}`;
      const run = await spawnInPty(sandbox, `echo waiting; sleep 3${marker} & sleep 4${marker}`);
      await outputShows(run, 'waiting');
      await expect.poll(() => processesWith(marker).length).toBeGreaterThanOrEqual(2);
      run.term.write('\x03');
      const { exitCode, signal } = await run.exited;
      // bwrap is in the foreground group too: it passes the command's status on or dies of the same SIGINT
      expect(exitCode === 130 || signal === 2).toBe(true);
      await expect.poll(() => processesWith(marker)).toEqual([]);
    });
  },
);
