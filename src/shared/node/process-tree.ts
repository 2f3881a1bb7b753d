/**
 * Ending a command's whole process tree on Windows, where there are no process groups to signal
 * (`process.kill(-pgid)` does nothing there): `taskkill /PID <pid> /T /F` ends the process and every process it
 * started, by parent id, at once (a console program has no SIGTERM to handle first).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

/** Runs one program to its end: its exit code (null: it could not start, or was killed) and its output. */
export type ProgramRunner = (file: string, args: readonly string[]) => Promise<{ code: number | null; output: string }>;

/** taskkill's exit code when no process has that pid: nothing is left to end. */
const NOT_FOUND = 128;

function runProgram(file: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(file, [...args], { timeout: 30_000, windowsHide: true }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`.trim();
      if (err === null) resolve({ code: 0, output });
      else resolve({ code: typeof err.code === 'number' ? err.code : null, output: output || err.message });
    });
  });
}

/** taskkill.exe in the Windows folder: never a `taskkill` some folder on PATH puts first. */
export function taskkillPath(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.SystemRoot ?? env.SYSTEMROOT ?? env.windir ?? 'C:\\Windows';
  return path.win32.join(root, 'System32', 'taskkill.exe');
}

/**
 * Ends process `pid` and its descendants. Null when done (or when no such process is left); otherwise why not, for the
 * person (the command may still be running).
 */
export async function killWindowsTree(
  pid: number,
  run: ProgramRunner = runProgram,
  taskkill: string = taskkillPath(),
): Promise<string | null> {
  const { code, output } = await run(taskkill, ['/PID', String(pid), '/T', '/F']);
  if (code === 0 || code === NOT_FOUND) return null;
  const detail = output.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return `taskkill could not end process ${pid} and its children (${code === null ? 'it did not run' : `exit code ${code}`}${detail ? `: ${detail.trim()}` : ''})`;
}
