import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ipcChannelName } from '../../../src/shared/api';
import { createFakeElectron } from './helpers/fake-electron';
import { loadMainBundle, quitApp } from './helpers/load-main';

// How the built main (out/main/index.js) starts, under a fake Electron: the command line it refuses in packaged
// builds, and the folder it opens from its arguments.

let home: string;
let restore: (() => void) | null = null;
let fake: ReturnType<typeof createFakeElectron> | null = null;
const savedEnv = { ...process.env };

beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-launch-')));
  process.env.GATEHOUSE_HOME = path.join(home, 'config');
  // Main asks the real login shell on a desktop launch; only the test that gives it a fake one lets it.
  process.env.GATEHOUSE_LOGIN_SHELL_PATH = '0';
  delete process.env.ELECTRON_RENDERER_URL;
});
afterEach(async () => {
  if (fake && fake.windows.length > 0) await quitApp(fake);
  restore?.();
  restore = null;
  fake = null;
  // Main sets process.env.PATH from the login shell: put this process's environment back.
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  // The app may still be finishing an atomic state write (a temp file, then a rename) into config/ as it quits:
  // retry on ENOTEMPTY instead of failing the cleanup.
  fs.rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

async function waitForWindow(f: ReturnType<typeof createFakeElectron>) {
  await expect.poll(() => f.windows.length, { timeout: 10_000 }).toBeGreaterThan(0);
  return f.windows[0]!;
}

describe('a packaged build started with a remote-debugging switch', () => {
  it('removes the switch before Chromium reads it, and exits with 1 without opening anything', async () => {
    fake = createFakeElectron({ pickFolder: () => null, switches: ['remote-debugging-port', 'lang'] });
    restore = loadMainBundle(fake, ['/opt/Gatehouse/gatehouse-desktop', '--remote-debugging-port=9222']);
    fake.app.fireReady();
    await new Promise((r) => setImmediate(r));
    expect(fake.app.exitCode).toBe(1);
    expect([...fake.app.commandLine.switches]).toEqual(['lang']);
    expect(fake.app.lockData).toBeUndefined();
    expect(fake.windows).toHaveLength(0);
    expect(fake.forks).toHaveLength(0);
  });

  it('a development build keeps it (and its DevTools)', async () => {
    fake = createFakeElectron({ pickFolder: () => null, switches: ['remote-debugging-port'] });
    fake.app.isPackaged = false;
    restore = loadMainBundle(fake, ['/usr/bin/electron', '--remote-debugging-port=9222']);
    fake.app.fireReady();
    const window = await waitForWindow(fake);
    expect(fake.app.exitCode).toBeNull();
    expect(window.options.webPreferences.devTools).toBe(true);
  });
});

describe('the folder on the command line', () => {
  it('is opened at start (relative to the working directory); a folder that does not exist is said, and the window still opens', async () => {
    const project = path.join(home, 'proj');
    fs.mkdirSync(project);
    const cwd = process.cwd();
    process.chdir(home);
    try {
      fake = createFakeElectron({ pickFolder: () => null });
      restore = loadMainBundle(fake, ['/opt/Gatehouse/gatehouse-desktop', '--no-sandbox', 'proj']);
    } finally {
      process.chdir(cwd);
    }
    expect(fake.app.lockData).toEqual({ args: ['--no-sandbox', 'proj'], cwd: home });
    fake.app.fireReady();
    const window = await waitForWindow(fake);
    const info = fake.ipcHandlers.get(ipcChannelName('getAppInfo')) as unknown as (
      e: unknown,
      p: unknown,
    ) => Promise<{ result: { project: string } }>;
    const reply = await info({ senderFrame: window.webContents.mainFrame, sender: window.webContents }, {});
    expect(reply.result.project).toBe(project);
  });

  it('a missing folder gets an error box and the window anyway', async () => {
    fake = createFakeElectron({ pickFolder: () => null });
    restore = loadMainBundle(fake, ['/opt/Gatehouse/gatehouse-desktop', path.join(home, 'missing')]);
    fake.app.fireReady();
    await waitForWindow(fake);
    expect(fake.errorBoxes).toEqual([['Cannot open folder', expect.stringContaining(path.join(home, 'missing'))]]);
  });
});

describe("a desktop launch (no terminal) takes the login shell's PATH", () => {
  it("gives the worker the PATH the user's profile sets, and nothing else from it (not the API key it exports)", async () => {
    const shell = path.join(home, 'zsh');
    fs.writeFileSync(
      shell,
      [
        '#!/bin/sh',
        'export PATH="/opt/homebrew/bin:/usr/bin:/bin"',
        'export ANTHROPIC_API_KEY=sk-ant-profile-0000',
        'for last; do :; done',
        'exec /bin/sh -c "$last"',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    delete process.env.GATEHOUSE_LOGIN_SHELL_PATH;
    delete process.env.TERM;
    delete process.env.ANTHROPIC_API_KEY;
    process.env.SHELL = shell;
    process.env.PATH = '/usr/bin:/bin:/usr/sbin';
    fake = createFakeElectron({ pickFolder: () => null });
    restore = loadMainBundle(fake, ['/Applications/Gatehouse.app/Contents/MacOS/Gatehouse']);
    fake.app.fireReady();
    await expect.poll(() => fake!.forks.length, { timeout: 15_000 }).toBe(1);
    const env = fake.forks[0]!.options.env as Record<string, string>;
    expect(env.PATH).toBe('/opt/homebrew/bin:/usr/bin:/bin:/usr/sbin');
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(process.env.ANTHROPIC_API_KEY).toBeUndefined();
  });
});
