import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAlive, groupRunning, terminateGroup } from '../../../src/worker/tools/process-group';

// A process group whose only member has ended but is not collected yet (a zombie): its parent, outside the group, is a
// Node process blocked in Atomics.wait, so it does not reap it. This is how a sandbox's processes look after its outer
// bubblewrap ended first, where PID 1 collects orphans late or never (a container without an init, some VMs).
const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn('true', [], { detached: true, stdio: 'ignore' });
process.stdout.write(String(child.pid) + '\\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000);
`;

const parents: ChildProcess[] = [];

afterEach(() => {
  for (const p of parents.splice(0)) p.kill('SIGKILL');
});

/** The group's only process, as a zombie: resolves with its pid (= the group's id) once /proc shows it as one. */
async function zombieGroup(): Promise<number> {
  const parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['ignore', 'pipe', 'inherit'] });
  parents.push(parent);
  const pid = await new Promise<number>((resolve, reject) => {
    parent.stdout!.setEncoding('utf8').once('data', (line: string) => resolve(Number(line.trim())));
    parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before printing`)));
  });
  await expect.poll(() => state(pid), { timeout: 15_000, interval: 20 }).toBe('Z');
  return pid;
}

function state(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

describe.runIf(process.platform === 'linux')('process groups', { timeout: 30_000 }, () => {
  it('a group holding only a zombie exists, but nothing in it runs', async () => {
    const pgid = await zombieGroup();
    expect(groupAlive(pgid)).toBe(true);
    expect(await groupRunning(pgid)).toBe(false);
  });

  it('terminateGroup does not wait for a zombie to be collected (the grace period here is longer than the test may take)', async () => {
    const pgid = await zombieGroup();
    await terminateGroup(pgid, 120_000);
    // Resolved while the zombie is still there: it did not wait for it to go.
    expect(state(pgid)).toBe('Z');
  });

  it('waits for a process that handles SIGTERM and still runs, and stops it with SIGKILL after the grace period', async () => {
    // It says so once its trap is set: on a loaded machine the signals could otherwise come before the trap.
    const child = spawn('sh', ['-c', 'trap "" TERM HUP; echo ready; while :; do sleep 0.05; done'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    parents.push(child);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    await new Promise((resolve) => child.stdout.once('data', resolve));
    expect(await groupRunning(child.pid!)).toBe(true);
    await terminateGroup(child.pid!, 300);
    expect(await exited).toBe('SIGKILL');
  });
});
