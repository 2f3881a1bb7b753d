import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ipcChannelName } from '../../../src/shared/api';
import { reply, startFakeAnthropic, text } from '../../support/fake-anthropic';
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

  it('a message sent before the login shell answers waits for its PATH: the hooks main runs and the worker get it', async () => {
    const model = await startFakeAnthropic({ apiKey: 'sk-login-path-0000' });
    try {
      // A program only the profile's PATH has, which a user hook runs: it records the PATH it was started with.
      const tools = path.join(home, 'profile-bin');
      const saw = path.join(home, 'hook-saw-path');
      fs.mkdirSync(tools);
      fs.writeFileSync(path.join(tools, 'gh-profile-tool'), `#!/bin/sh\nprintf '%s' "$PATH" > '${saw}'\n`, {
        mode: 0o755,
      });
      // The login shell answers only once the test lets it (it waits on a FIFO): the message goes first.
      const gate = path.join(home, 'gate');
      execFileSync('mkfifo', [gate]);
      const shell = path.join(home, 'zsh');
      fs.writeFileSync(
        shell,
        [
          '#!/bin/sh',
          `read go < '${gate}'`,
          `export PATH="${tools}:/usr/bin:/bin"`,
          'for last; do :; done',
          'exec /bin/sh -c "$last"',
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      const project = path.join(home, 'proj');
      const config = path.join(home, 'config');
      fs.mkdirSync(project);
      fs.mkdirSync(config);
      const hook = { hooks: [{ type: 'command', command: 'gh-profile-tool' }] };
      fs.writeFileSync(
        path.join(config, 'settings.yaml'),
        JSON.stringify({ trust: { default: 'trust' }, hooks: { UserPromptSubmit: [hook] } }),
      );
      delete process.env.GATEHOUSE_LOGIN_SHELL_PATH;
      delete process.env.TERM;
      Object.assign(process.env, {
        SHELL: shell,
        PATH: '/usr/bin:/bin',
        ANTHROPIC_API_KEY: model.apiKey,
        ANTHROPIC_BASE_URL: model.baseURL,
      });
      fake = createFakeElectron({ pickFolder: () => null });
      restore = loadMainBundle(fake, ['/Applications/Gatehouse.app/Contents/MacOS/Gatehouse', project]);
      fake.app.fireReady();
      const window = await waitForWindow(fake);
      const call = fake.ipcHandlers.get(ipcChannelName('sendMessage')) as unknown as (
        e: unknown,
        p: unknown,
      ) => Promise<{ ok: boolean; result?: { runId: string } }>;
      model.enqueue(reply(text('hello')));
      const sent = call({ senderFrame: window.webContents.mainFrame, sender: window.webContents }, { text: 'hi' });
      // The message is waiting for the PATH (main.log says so) before the login shell is let answer.
      const mainLog = path.join(config, 'logs', 'main.log');
      await expect
        .poll(() => fs.existsSync(mainLog) && fs.readFileSync(mainLog, 'utf8'), { timeout: 15_000 })
        .toMatch(/the worker waits for the login shell's PATH before it starts/);
      expect(fake.forks).toHaveLength(0);
      await fs.promises.writeFile(gate, 'go\n');
      expect(await sent).toMatchObject({ ok: true, result: { runId: expect.any(String) } });
      await expect.poll(() => fs.existsSync(saw), { timeout: 15_000 }).toBe(true);
      expect(fs.readFileSync(saw, 'utf8')).toBe(`${tools}:/usr/bin:/bin`);
      // One worker, started with that PATH: the agent's commands and the MCP servers it starts have it too.
      expect(fake.forks).toHaveLength(1);
      expect((fake.forks[0]!.options.env as Record<string, string>).PATH).toBe(`${tools}:/usr/bin:/bin`);
    } finally {
      await model.close();
    }
  });
});
