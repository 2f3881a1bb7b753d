import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { APP_ID } from '../../../src/main/shells/electron/app-identity';
import { ipcChannelName } from '../../../src/shared/api';
import { createFakeElectron } from './helpers/fake-electron';
import { loadMainBundle, quitApp } from './helpers/load-main';

// Folders handed to the built main (out/main/index.js) from outside, under a fake Electron: a folder dropped on the
// macOS Dock icon (open-file, sent before `ready`), a gatehouse://open link (open-url on macOS, an argument on
// Windows and Linux), and what a start registers (the AppUserModelId Windows notifications need, the link scheme).

let home: string;
let folder: string;
let fake: ReturnType<typeof createFakeElectron> | null = null;
let restore: (() => void) | null = null;
const savedEnv = { ...process.env };

beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-opens-')));
  folder = path.join(home, 'dropped folder');
  fs.mkdirSync(folder);
  process.env.GATEHOUSE_HOME = path.join(home, 'config');
  process.env.GATEHOUSE_LOGIN_SHELL_PATH = '0';
  delete process.env.ELECTRON_RENDERER_URL;
});
afterEach(async () => {
  if (fake && fake.windows.length > 0) await quitApp(fake);
  restore?.();
  restore = null;
  fake = null;
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  fs.rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

function load(args: string[] = [], platform?: NodeJS.Platform) {
  fake = createFakeElectron({ pickFolder: () => null });
  const real = process.platform;
  // Only what main does while it loads sees the other platform (prepare(), before `ready`).
  if (platform) Object.defineProperty(process, 'platform', { value: platform });
  try {
    restore = loadMainBundle(fake, ['/opt/Gatehouse/gatehouse-desktop', ...args]);
  } finally {
    Object.defineProperty(process, 'platform', { value: real });
  }
  return fake;
}

async function ready(f: ReturnType<typeof createFakeElectron>) {
  f.app.fireReady();
  await expect.poll(() => f.windows.length, { timeout: 10_000 }).toBe(1);
}

async function project(): Promise<string | null> {
  const contents = fake!.windows.at(-1)!.webContents;
  const handler = fake!.ipcHandlers.get(ipcChannelName('getAppInfo')) as unknown as (
    e: unknown,
    p: unknown,
  ) => Promise<{ result: { project: string | null } }>;
  return (await handler({ senderFrame: contents.mainFrame, sender: contents }, {})).result.project;
}

/** Emits a preventable Electron event on the app; says whether main prevented it (took it over from the OS). */
function emitOpen(name: 'open-file' | 'open-url', value: string): boolean {
  let prevented = false;
  fake!.app.emit(name, { preventDefault: () => (prevented = true) }, value);
  return prevented;
}

const link = (p: string) => `gatehouse://open?path=${encodeURIComponent(p)}`;

describe('a folder dropped on the Dock icon (open-file)', () => {
  it('before the app is ready: kept, then opened once the window exists', async () => {
    const f = load();
    expect(emitOpen('open-file', folder)).toBe(true);
    await ready(f);
    await expect.poll(project, { timeout: 10_000 }).toBe(folder);
  });

  it('while it runs: opened at once; a file (not a folder) is refused with the reason', async () => {
    const f = load();
    await ready(f);
    expect(emitOpen('open-file', folder)).toBe(true);
    await expect.poll(project, { timeout: 10_000 }).toBe(folder);
    const file = path.join(home, 'notes.txt');
    fs.writeFileSync(file, 'x');
    emitOpen('open-file', file);
    await expect.poll(() => f.errorBoxes).toEqual([['Cannot open folder', expect.stringContaining('not a folder')]]);
    expect(await project()).toBe(folder);
  });
});

describe('a gatehouse://open link', () => {
  it('asks the person, naming the folder: Cancel opens nothing, Open opens it', async () => {
    const f = load();
    await ready(f);
    f.answerMessageBoxes(1); // Cancel
    expect(emitOpen('open-url', link(folder))).toBe(true);
    await expect.poll(() => f.messageBoxes.length).toBe(1);
    expect(f.messageBoxes[0]!.options).toMatchObject({
      type: 'question',
      message: 'Open this folder in Gatehouse?',
      buttons: ['Open', 'Cancel'],
      detail: expect.stringContaining(folder),
    });
    expect(await project()).toBeNull();

    f.answerMessageBoxes(0); // Open
    emitOpen('open-url', link(folder));
    await expect.poll(project, { timeout: 10_000 }).toBe(folder);
  });

  it('a malformed or network link is refused with the reason; nothing is asked or opened', async () => {
    const f = load();
    await ready(f);
    emitOpen('open-url', 'gatehouse://open?path=%2Fsrv&prompt=rm%20-rf');
    emitOpen('open-url', link('//attacker.example/share'));
    expect(f.errorBoxes).toEqual([
      ['Cannot open link', expect.stringContaining('exactly one path')],
      ['Cannot open link', expect.stringContaining('must be absolute')],
    ]);
    expect(f.messageBoxes).toEqual([]);
    expect(await project()).toBeNull();
  });

  it('at launch (Windows, Linux: an argument) it is asked about too, and a folder smuggled beside it is ignored', async () => {
    const other = path.join(home, 'other');
    fs.mkdirSync(other);
    const f = load([link(folder), other]);
    f.answerMessageBoxes(1); // Cancel
    await ready(f);
    await expect.poll(() => f.messageBoxes.length).toBe(1);
    expect(await project()).toBeNull();
    // The same from a second launch while the app runs.
    f.answerMessageBoxes(0);
    f.app.emit('second-instance', {}, [], '/', { args: [link(folder), other], cwd: '/' });
    await expect.poll(project, { timeout: 10_000 }).toBe(folder);
  });
});

describe('what a start registers with the OS', () => {
  it("the app's id is electron-builder's appId (the one the Windows installer gives the Start menu shortcut)", () => {
    const config = parse(fs.readFileSync(path.resolve(__dirname, '../../../build/electron-builder.yml'), 'utf8'));
    expect(config.appId).toBe(APP_ID);
  });

  it('Windows: the AppUserModelId of the installer’s shortcut (notifications show), and the link scheme', () => {
    const f = load([], 'win32');
    expect(f.app.appUserModelId).toBe(APP_ID);
    expect(f.app.protocolClients).toEqual(['gatehouse']);
  });

  it('macOS: the link scheme, no AppUserModelId; Linux: neither (its package’s .desktop file declares the scheme)', () => {
    expect(load([], 'darwin').app).toMatchObject({ appUserModelId: null, protocolClients: ['gatehouse'] });
    restore?.();
    expect(load([], 'linux').app).toMatchObject({ appUserModelId: null, protocolClients: [] });
  });

  it('a development build never claims the scheme for the bare Electron binary', () => {
    fake = createFakeElectron({ pickFolder: () => null });
    fake.app.isPackaged = false;
    const real = process.platform;
    Object.defineProperty(process, 'platform', { value: 'darwin' });
    try {
      restore = loadMainBundle(fake, ['/usr/bin/electron']);
    } finally {
      Object.defineProperty(process, 'platform', { value: real });
    }
    expect(fake.app.protocolClients).toEqual([]);
  });
});
