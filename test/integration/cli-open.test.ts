import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desktopAppLocations } from '../../src/main/shells/cli/desktop-app';
import { AppInfoSchema } from '../../src/shared/api';
import { openApiSocket } from '../e2e/support/api-socket';
import { CLI_PATH, makeTempDir, removeTempDir, requireBuiltApp } from '../e2e/support/start-web';
import { codeCacheEnv } from '../support/code-cache-env';
import { runGatehouse } from './agent-helpers';

// The built `gatehouse open [DIR]` and `gatehouse .`: with a desktop app (a stand-in executable that records the
// arguments it was started with) the folder goes to it as its one argument, detached; with none installed the
// browser shell serves the folder (no browser is opened: GATEHOUSE_NO_OPEN), until Ctrl-C.

let root: string;
let project: string;
let record: string;
let desktop: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  requireBuiltApp();
  root = makeTempDir('gh-cli-open-');
  project = path.join(root, 'my app');
  fs.mkdirSync(path.join(project, 'sub'), { recursive: true });
  fs.mkdirSync(path.join(root, 'home'));
  record = path.join(root, 'desktop-argv');
  desktop = path.join(root, 'gatehouse-desktop');
  // One argument per line, then a last line: the stand-in has seen everything (the test polls for that line).
  fs.writeFileSync(desktop, `#!/bin/sh\n{ printf '%s\\n' "$@"; echo END; } > '${record}'\n`, { mode: 0o755 });
  env = {
    PATH: process.env.PATH,
    HOME: path.join(root, 'home'),
    GATEHOUSE_HOME: path.join(root, 'gh'),
    GATEHOUSE_NO_OPEN: '1',
    ...codeCacheEnv(),
  };
});
afterAll(() => removeTempDir(root));

/** The arguments the stand-in desktop app was started with (it was started detached: it may finish after us). */
async function desktopArgs(): Promise<string[]> {
  await expect.poll(() => fs.existsSync(record) && fs.readFileSync(record, 'utf8').endsWith('END\n')).toBe(true);
  const lines = fs.readFileSync(record, 'utf8').split('\n').slice(0, -2);
  fs.rmSync(record);
  return lines;
}

describe('gatehouse open with the desktop app installed', () => {
  const withApp = () => ({ ...env, GATEHOUSE_DESKTOP: desktop });

  it('hands it the folder, absolute, as its one argument, and exits', async () => {
    const r = await runGatehouse(['open', 'my app/sub'], withApp(), root);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.trim()).toBe(`Opening ${path.join(project, 'sub')} in the Gatehouse desktop app.`);
    expect(await desktopArgs()).toEqual([path.join(project, 'sub')]);
  });

  it('`gatehouse .` is `gatehouse open .`: the current folder', async () => {
    const r = await runGatehouse(['.'], withApp(), project);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(await desktopArgs()).toEqual([project]);
  });

  it('a folder that does not exist, or a second one, is named before anything starts', async () => {
    const missing = await runGatehouse(['open', 'nowhere'], withApp(), root);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain(`gatehouse open: project folder not found: ${path.join(root, 'nowhere')}`);
    const two = await runGatehouse(['open', project, root], withApp(), root);
    expect(two).toMatchObject({ code: 2 });
    expect(two.stderr).toContain(`unexpected argument "${root}"`);
    expect(fs.existsSync(record)).toBe(false);
  });

  it('a GATEHOUSE_DESKTOP that is not an executable file, or not absolute, is an error, not a silent fallback', async () => {
    const notExecutable = path.join(root, 'not-executable');
    fs.writeFileSync(notExecutable, '#!/bin/sh\n', { mode: 0o644 });
    const r = await runGatehouse(['open', project], { ...env, GATEHOUSE_DESKTOP: notExecutable }, root);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toContain(`GATEHOUSE_DESKTOP is ${notExecutable}, but ${notExecutable} is not an executable file`);
    const relative = await runGatehouse(['open', project], { ...env, GATEHOUSE_DESKTOP: 'gatehouse-desktop' }, root);
    expect(relative).toMatchObject({ code: 1 });
    expect(relative.stderr).toContain('GATEHOUSE_DESKTOP must be an absolute path');
  });
});

/** `gatehouse open ARGS` as a running process: resolves with its URL line, and a stop that sends Ctrl-C. */
async function startOpen(args: string[], extraEnv: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CLI_PATH, 'open', ...args], {
    env: { ...env, ...extraEnv },
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  const line = /^Gatehouse is running at http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]+)$/m;
  await expect.poll(() => line.test(out) || child.exitCode !== null, { timeout: 20_000 }).toBe(true);
  const [, port = '0', token = ''] = line.exec(out) ?? [];
  return {
    port: Number(port),
    token,
    out: () => out,
    err: () => err,
    stop: async () => {
      child.kill('SIGINT');
      return closed;
    },
  };
}

describe('gatehouse open without the desktop app', () => {
  const installed = desktopAppLocations(process.env, process.platform).filter((f) => fs.existsSync(f));

  it.skipIf(installed.length > 0)(
    `serves the folder in the browser shell, says why, and stops on Ctrl-C${installed.length ? ` (skipped: ${installed.join(', ')} is installed here)` : ''}`,
    async () => {
      const run = await startOpen([project], {});
      try {
        expect(run.err()).toContain(
          `No Gatehouse desktop app found (looked for ${desktopAppLocations(env, process.platform).join(', ')}`,
        );
        expect(run.out()).toContain('Not opening a browser (GATEHOUSE_NO_OPEN is set)');
        const socket = await openApiSocket(run.port, { token: run.token });
        try {
          const info = await socket.call('getAppInfo', {});
          expect(AppInfoSchema.parse((info as { result: unknown }).result)).toMatchObject({
            shell: 'browser',
            project,
          });
        } finally {
          await socket.close();
        }
      } finally {
        expect(await run.stop()).toBe(0);
      }
    },
  );

  it('--web: the browser shell even where the desktop app is installed (it is not started)', async () => {
    const run = await startOpen(['--web', project], { GATEHOUSE_DESKTOP: desktop });
    try {
      expect(run.port).toBeGreaterThan(0);
      expect(run.err()).toContain(`Opening ${project} in the browser shell.`);
    } finally {
      expect(await run.stop()).toBe(0);
    }
    expect(fs.existsSync(record)).toBe(false);
  });
});
