/** The plug-in as the worker does it: run_command's runInPty with the sandbox as its CommandWrapper. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox } from '../../src/sandbox/types';
import { runInPty, type CommandWrapper } from '../../src/worker/tools/run-command';
import { makeWorld, noBwrapReason, type SandboxWorld } from '../unit/sandbox/support';

describe.skipIf(noBwrapReason !== null)(
  `run_command inside the sandbox (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
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

    function run(command: string, signal = new AbortController().signal, timeoutMs = 20_000) {
      const wrapper: CommandWrapper = sandbox; // the sandbox is a CommandWrapper as it is
      const chunks: string[] = [];
      const result = runInPty(
        command,
        timeoutMs,
        { wrapper, defaultTimeoutMs: timeoutMs, killGraceMs: 500 },
        {
          projectRoot: world.project,
          additionalDirectories: [],
          signal,
          maxOutputChars: 30_000,
          onOutput: (c) => chunks.push(c),
        },
      );
      return { result, chunks };
    }

    it('streams output and returns the exit code', async () => {
      const { result, chunks } = run('echo hello; echo made > made.txt; exit 4');
      const r = await result;
      expect(r.exitCode).toBe(4);
      expect(r.content).toContain('hello');
      expect(chunks.join('')).toContain('hello');
      expect(fs.readFileSync(path.join(world.project, 'made.txt'), 'utf8')).toBe('made\n');
    });

    it('turns a blocked write into a clear tool error', async () => {
      const target = path.join(world.outside, 'x');
      const r = await run(`echo nope > ${target}`).result;
      expect(r.isError).toBe(true);
      expect(r.content).toContain(`blocked by sandbox: write outside the project: ${target}`);
      expect(fs.existsSync(target)).toBe(false);
    });

    it('cancel kills everything the command started', async () => {
      const marker = `${(Date.now() + 3) % 100000}.${process.pid}`;
      const ac = new AbortController();
      const { result, chunks } = run(`sleep 5${marker} & sleep 6${marker} & echo started; wait`, ac.signal);
      await expect.poll(() => chunks.join('')).toContain('started');
      ac.abort();
      const r = await result;
      expect(r.content).toContain('[cancelled]');
      const alive = fs.readdirSync('/proc').filter((p) => {
        try {
          return /^\d+$/.test(p) && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
        } catch {
          return false;
        }
      });
      expect(alive).toEqual([]);
    });
  },
);
