import fs from 'node:fs';
import { killWindowsTree } from '../../shared/node/process-tree';

/** Signals for a whole process group: a command's shell, its children and its background jobs. */

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nobody left in the group
  }
}

/** Whether any process of the group exists, a zombie (ended, not yet collected by its parent) included. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a process of the group still runs: on Linux, one in /proc whose group is `pgid` and that is not a zombie.
 * A sandbox's processes are orphaned when its outer bubblewrap ends first (the inner one is handed to PID 1); they end
 * at once, but stay zombies until PID 1 collects them, which an init that does not wait on SIGCHLD (a container
 * without one, some VMs) does late or never. Elsewhere (no /proc): `groupAlive`.
 */
export async function groupRunning(pgid: number): Promise<boolean> {
  if (!groupAlive(pgid)) return false;
  if (process.platform !== 'linux') return true;
  let names: string[];
  try {
    names = await fs.promises.readdir('/proc');
  } catch {
    return true;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await fs.promises.readFile(`/proc/${name}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so fields are counted from its last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/**
 * SIGTERM to the group, then SIGKILL to whatever is left after `graceMs`. Resolves when done: once no process of the
 * group runs (checked every 20 ms; zombies are looked for every 100 ms, see `groupRunning`), or after the SIGKILL.
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGHUP');
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  for (let poll = 1; Date.now() < deadline; poll++) {
    if (!groupAlive(pgid)) return;
    if (poll % 5 === 0 && !(await groupRunning(pgid))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  signalGroup(pgid, 'SIGKILL');
}

/**
 * Ends a command's whole process tree, `pid` being its first process (a group leader on Linux and macOS): null when
 * done, else why not. Linux and macOS: the group, SIGTERM then SIGKILL after `graceMs`. Windows has no groups to
 * signal: `taskkill /T /F` ends the tree by parent id at once (src/shared/node/process-tree.ts).
 */
export type TreeEnder = (pid: number, graceMs: number) => Promise<string | null>;

export function treeEnderFor(platform: NodeJS.Platform = process.platform): TreeEnder {
  if (platform === 'win32') return (pid) => killWindowsTree(pid);
  return async (pid, graceMs) => {
    await terminateGroup(pid, graceMs);
    return null;
  };
}
