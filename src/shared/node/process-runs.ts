/**
 * Whether the process `pid` may still run: false when the system says there is no such process (ESRCH), or when
 * `pid` is not a positive integer (no process has it; `process.kill(0)` would ask about this process's group). EPERM
 * (it runs as someone else) counts as running, so what a caller keeps for a live process is never removed.
 */
export function processRuns(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
