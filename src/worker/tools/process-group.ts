/** Signals for a whole process group: a command's shell, its children and its background jobs. */

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nobody left in the group
  }
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGTERM to the group, then SIGKILL to whatever is left after `graceMs`. Resolves when done. */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGHUP');
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  signalGroup(pgid, 'SIGKILL');
}
