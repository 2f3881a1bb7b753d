import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runInPty, type RunCommandOptions } from '../../src/worker/tools/run-command';
import type { TreeEnder } from '../../src/worker/tools/process-group';
import { makeSandbox, type Sandbox } from '../unit/tools/helpers';

// Cancel ends a command's whole process tree: every child, grandchild and background job, with real processes here
// (Linux: the process group); and run_command hands the tree's root to the platform's ender (Windows: taskkill /T),
// here a fake one that records the pid it got.

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox();
});
afterAll(() => sb.cleanup());

/** Processes a test started, killed at the end whatever happened (a failing test leaves nothing running). */
const started = new Set<number>();
afterEach(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  started.clear();
});

/** Running, not a zombie waiting to be collected. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

const pidsIn = (output: string): number[] => [...output.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));

/** Runs `command` until it printed `count` pids (`pid N` lines), then aborts it; those pids. */
async function cancelAfter(command: string, count: number, opts: Partial<RunCommandOptions> = {}) {
  const ac = new AbortController();
  let output = '';
  const pending = runInPty(
    command,
    600_000,
    { defaultTimeoutMs: 600_000, killGraceMs: 500, ...opts },
    { ...sb.ctx({ signal: ac.signal, onOutput: (c) => (output += c) }), maxOutputChars: 30_000 },
  );
  await expect.poll(() => pidsIn(output).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  const pids = pidsIn(output);
  for (const pid of pids) started.add(pid);
  ac.abort();
  return { result: await pending, pids, output };
}

// Children, grandchildren and great-grandchildren; background jobs, a nohup'd one, a subshell, a pipeline.
const TREE = [
  'echo "pid $$"',
  'sleep 600 & echo "pid $!"',
  `bash -c 'echo "pid $$"; sleep 600 & echo "pid $!"; bash -c "sleep 600 & echo pid \\$!; wait" & wait' &`,
  'nohup sleep 600 >/dev/null 2>&1 & echo "pid $!"',
  '(sleep 600; true) & echo "pid $!"',
  'sleep 600 | cat & echo "pid $!"',
  'wait',
].join('\n');

describe.runIf(process.platform === 'linux')('cancel ends the whole process tree', { timeout: 60_000 }, () => {
  it('no child, grandchild or background job of a cancelled command keeps running', async () => {
    // the command's shell, two background sleeps, a nested bash, its background sleep and the one of the bash in it,
    // the nohup'd sleep, the subshell and the pipeline
    const { result, pids } = await cancelAfter(TREE, 8);
    expect(result).toMatchObject({ isError: true, exitCode: null });
    expect(result.content.endsWith('[cancelled]')).toBe(true);
    await expect.poll(() => pids.filter(alive), { timeout: 10_000 }).toEqual([]);
  });

  it("hands the tree's root to the platform's ender (Windows: taskkill /T by pid) and reports when it fails", async () => {
    const calls: number[] = [];
    // Ends the group as Linux does, so the run ends; records which pid it was given.
    const ender: TreeEnder = async (pid) => {
      calls.push(pid);
      process.kill(-pid, 'SIGKILL');
      return null;
    };
    const ok = await cancelAfter('echo "pid $PPID"; sleep 600', 1, {
      endTree: ender,
    });
    // The command runs under the pty's wrapper shell: its parent is the tree's root, the pty's own child.
    expect(calls).toEqual([ok.pids[0]]);
    expect(ok.result.content.endsWith('[cancelled]')).toBe(true);

    // A taskkill that refuses: the person and the model are told, and the pty's own kill still ends the command.
    const refusing: TreeEnder = async (pid) =>
      `taskkill could not end process ${pid} and its children (exit code 1: ERROR: Access is denied.)`;
    const failed = await cancelAfter('echo "pid $PPID"; sleep 600', 1, {
      endTree: refusing,
    });
    expect(failed.result.content).toMatch(
      /\[cancelled\]\n\[taskkill could not end process \d+ and its children \(exit code 1: ERROR: Access is denied\.\)\]$/,
    );
    expect(failed.result.isError).toBe(true);
    await expect.poll(() => failed.pids.filter(alive), { timeout: 10_000 }).toEqual([]);
  });
});
