import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ipcChannelName } from '../../../src/shared/api';
import { createFakeElectron, fakeDisplay } from './helpers/fake-electron';
import { loadMainBundle, quitApp } from './helpers/load-main';

// The built main (out/main/index.js) under a fake Electron, started, used and quit, then started again on the same
// config folder: the window comes back where it was left on the same displays (and maximised if it was), at its
// default place when those displays are gone; with no folder given the last project opens again.

const laptop = fakeDisplay({ x: 0, y: 0, width: 1440, height: 900 }, 2);
const monitor = fakeDisplay({ x: 1440, y: 0, width: 2560, height: 1440 });

let home: string;
let config: string;
let stateFile: string;
let fake: ReturnType<typeof createFakeElectron> | null = null;
let restore: (() => void) | null = null;
const savedEnv = { ...process.env };

beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-winstate-')));
  config = path.join(home, 'config');
  stateFile = path.join(config, 'window-state.json');
  process.env.GATEHOUSE_HOME = config;
  process.env.GATEHOUSE_LOGIN_SHELL_PATH = '0';
  delete process.env.ELECTRON_RENDERER_URL;
});
afterEach(async () => {
  await stop();
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  fs.rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

async function start(displays: Array<ReturnType<typeof fakeDisplay>>, args: string[] = []) {
  fake = createFakeElectron({ pickFolder: () => null, displays });
  restore = loadMainBundle(fake, ['/opt/Gatehouse/gatehouse-desktop', ...args]);
  fake.app.fireReady();
  await expect.poll(() => fake!.windows.length, { timeout: 10_000 }).toBe(1);
  return fake.windows[0]!;
}

async function stop(): Promise<void> {
  if (fake && fake.windows.length > 0) await quitApp(fake);
  restore?.();
  restore = null;
  fake = null;
}

async function project(): Promise<string | null> {
  const contents = fake!.windows.at(-1)!.webContents;
  const handler = fake!.ipcHandlers.get(ipcChannelName('getAppInfo')) as unknown as (
    e: unknown,
    p: unknown,
  ) => Promise<{ result: { project: string | null } }>;
  return (await handler({ senderFrame: contents.mainFrame, sender: contents }, {})).result.project;
}

const saved = () => JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Record<string, unknown>;

describe('the window is remembered per display arrangement', () => {
  it('moved, then closed: the next start opens it there; maximised: it opens maximised', async () => {
    const window = await start([laptop, monitor]);
    expect(window.options).not.toHaveProperty('x'); // first start: the default size where the OS puts it
    expect(window.options).toMatchObject({ width: 1200, height: 800 });
    window.setBounds({ x: 1600, y: 120, width: 1800, height: 1100 });
    // Saved once the window has been still for a moment (a crash then loses at most that), without closing it.
    await expect.poll(() => fs.existsSync(stateFile), { timeout: 10_000 }).toBe(true);
    expect(Object.values(saved().layouts as object)).toEqual([
      expect.objectContaining({ bounds: { x: 1600, y: 120, width: 1800, height: 1100 }, maximized: false }),
    ]);
    window.close();
    await stop();

    const again = await start([monitor, laptop]); // the OS lists them the other way round: the same arrangement
    expect(again.options).toMatchObject({ x: 1600, y: 120, width: 1800, height: 1100 });
    again.maximize();
    again.close();
    await stop();

    const third = await start([laptop, monitor]);
    expect(third.maximized).toBe(false);
    third.emit('ready-to-show');
    expect(third.maximized).toBe(true);
    expect(third.options).toMatchObject({ x: 1600, y: 120 }); // its size when it is unmaximised
  });

  it('the monitor it was on unplugged: it opens at its default place, and each arrangement keeps its own', async () => {
    const window = await start([laptop, monitor]);
    window.setBounds({ x: 2000, y: 200, width: 1500, height: 1000 });
    window.close();
    await stop();

    const alone = await start([laptop]);
    expect(alone.options).not.toHaveProperty('x');
    alone.setBounds({ x: 40, y: 60, width: 1300, height: 800 });
    alone.close();
    await stop();

    expect((await start([laptop, monitor])).options).toMatchObject({ x: 2000, y: 200 });
    await stop();
    expect((await start([laptop])).options).toMatchObject({ x: 40, y: 60, width: 1300, height: 800 });
  });

  it('a damaged state file is ignored (the window opens at its default place) and replaced by the next save', async () => {
    fs.mkdirSync(config, { recursive: true });
    fs.writeFileSync(stateFile, '{"version":1,"layouts":{"x":{"bounds":"everywhere"}}');
    const window = await start([laptop]);
    expect(window.options).not.toHaveProperty('x');
    window.setBounds({ x: 10, y: 50, width: 900, height: 700 });
    window.close();
    await stop();
    expect(saved()).toMatchObject({ version: 1, lastProject: null });
    expect(fs.readdirSync(config).filter((n) => n.includes('window-state'))).toEqual(['window-state.json']);
  });
});

describe('the last project', () => {
  it('opens again when the app starts with no folder; a folder on the command line wins', async () => {
    const first = path.join(home, 'first');
    const second = path.join(home, 'second');
    fs.mkdirSync(first);
    fs.mkdirSync(second);
    await start([laptop], [first]);
    await expect.poll(project, { timeout: 10_000 }).toBe(first);
    await stop();

    await start([laptop]);
    await expect.poll(project, { timeout: 10_000 }).toBe(first);
    await stop();

    await start([laptop], [second]);
    await expect.poll(project, { timeout: 10_000 }).toBe(second);
    await stop();
    expect(saved().lastProject).toBe(second);
  });

  it('gone since: the app starts without a project and without an error box', async () => {
    const gone = path.join(home, 'gone');
    fs.mkdirSync(gone);
    await start([laptop], [gone]);
    await expect.poll(project, { timeout: 10_000 }).toBe(gone);
    await stop();
    fs.rmSync(gone, { recursive: true });

    await start([laptop]); // the window is made once the reopening has failed
    expect(await project()).toBeNull();
    expect(fake!.errorBoxes).toEqual([]);
  });
});
