import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/** What one run of the packaged `gatehouse` launcher did. */
export interface LauncherRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The arguments the app (the packed stand-in for Electron) was started with, once it has started. */
  appArgs(): Promise<string[]>;
  /** Whether the app was started (read once the launcher has exited: it starts the app before it exits, or never). */
  appStarted(): boolean;
}

let runs = 0;

/**
 * Runs the launcher at `launcher` (a path on PATH, maybe a link to it) as a person would, in `cwd`. The stand-in
 * app writes its arguments to a file (GATEHOUSE_STANDIN_ARGS, see package-offline.ts).
 */
export function runLauncher(launcher: string, args: string[], cwd: string, scratch: string): LauncherRun {
  const record = path.join(scratch, `app-args-${++runs}`);
  const r = spawnSync(launcher, args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, GATEHOUSE_STANDIN_ARGS: record },
  });
  const read = () => fs.readFileSync(record, 'utf8').split('\n').slice(0, -1);
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    appArgs: async () => {
      await expect.poll(() => fs.existsSync(record), { message: `the app was not started by ${launcher}` }).toBe(true);
      return read();
    },
    appStarted: () => fs.existsSync(record) || fs.existsSync(`${record}.tmp`),
  };
}

/**
 * The launcher's behaviour, the same on every POSIX platform: `gatehouse DIR`, `gatehouse open DIR`,
 * `gatehouse open` (this folder) and `gatehouse .` start the app with the folder's absolute path; `gatehouse`
 * alone starts it with none; a path that is no folder is refused before anything starts.
 */
export async function expectLauncherOpensFolders(launcher: string, scratch: string): Promise<void> {
  const project = path.join(scratch, 'my project');
  const other = path.join(scratch, '-other');
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(other, { recursive: true });
  const run = (args: string[], cwd = project) => runLauncher(launcher, args, cwd, scratch);

  for (const [args, cwd] of [
    [['.'], project],
    [['open'], project],
    [['open', 'my project'], scratch],
    [[project], '/'],
  ] as const) {
    const r = run([...args], cwd);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    expect(await r.appArgs(), args.join(' ')).toEqual([project]);
  }
  // A folder whose name starts with "-" reaches the app as an absolute path, never as a switch.
  const dashed = run(['./-other'], scratch);
  expect(await dashed.appArgs()).toEqual([other]);
  const bare = run([]);
  expect(bare.status).toBe(0);
  expect(await bare.appArgs()).toEqual([]);

  for (const args of [['no-such-folder'], ['open', 'no-such-folder'], ['run', 'task'], ['--inspect']]) {
    const refused = run(args);
    expect(refused.status, args.join(' ')).toBe(2);
    expect(refused.stderr).toMatch(/usage: gatehouse \[open\] \[DIR\]/);
    expect(refused.appStarted(), args.join(' ')).toBe(false);
  }
  expect(run(['open', 'no-such-folder']).stderr).toMatch(/^gatehouse: no-such-folder is not a folder$/m);
  expect(run(['--help'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^usage: gatehouse/) });
}
