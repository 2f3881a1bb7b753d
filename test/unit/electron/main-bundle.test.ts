import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_CHANNELS, IPC_EVENT_CHANNEL, ipcChannelName } from '../../../src/shared/api';
import { createFakeElectron, FakeFrame } from './helpers/fake-electron';
import { loadMainBundle } from './helpers/load-main';
import type { FakeWebContents } from './helpers/fake-electron';

// The built Electron main (out/main/index.js) run under plain Node against a recording fake of Electron's API,
// with a real worker process: checks the wiring main.ts does (window options, IPC sender checks, app:// serving,
// permission and navigation guards, quitting stops the worker).

const root = path.resolve(__dirname, '../../..');
let home: string;
let project: string;
let fake: ReturnType<typeof createFakeElectron>;
let contents: FakeWebContents;
let pick: string | null = null;
let restore: (() => void) | undefined;
const savedEnv = { ...process.env };

beforeAll(async () => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-main-')));
  project = path.join(home, 'project');
  fs.mkdirSync(project);
  pick = project;
  fake = createFakeElectron({ pickFolder: () => pick });
  process.env.GATEHOUSE_HOME = path.join(home, 'config');
  delete process.env.ELECTRON_RENDERER_URL;
  process.env.GATEHOUSE_LOGIN_SHELL_PATH = '0'; // not the real login shell (login-shell-path.test.ts has fake ones)
  // A packaged app started from a launcher: no arguments. Loaded afresh: another file of this worker may have run it.
  restore = loadMainBundle(fake, ['/opt/Gatehouse/gatehouse-desktop']);
  fake.app.fireReady();
  contents = await vi.waitFor(
    () => {
      const window = fake.windows[0];
      if (!window) throw new Error('the main bundle opened no window');
      const ready = window.webContents.sent.some(
        ([, e]) => (e as { status?: { state: string } }).status?.state === 'ready',
      );
      if (!ready) throw new Error('the window was never told the worker is ready');
      return window.webContents;
    },
    { timeout: 20_000 },
  );
}, 30_000);

afterAll(() => {
  restore?.();
  // Main sets process.env (PATH from the login shell, the variables above): put this worker's environment back.
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  fs.rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

function appEvent(frame: FakeFrame = contents.mainFrame, sender: unknown = contents) {
  return { senderFrame: frame, sender };
}

async function callIpc(channel: string, payload: unknown, event = appEvent()) {
  const handler = fake.ipcHandlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return (
    handler as unknown as (
      e: unknown,
      p: unknown,
    ) => Promise<{ ok: boolean; result?: unknown; error?: { code: string } }>
  )(event, payload);
}

describe('out/main/index.js under a fake Electron', () => {
  it('prepares the app before ready: sandbox everywhere, app:// privileged, userData under GATEHOUSE_HOME', () => {
    expect(fake.app.sandboxEnabled).toBe(true);
    expect(fake.schemes).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    expect(fake.app.paths.userData).toBe(path.join(home, 'config', 'desktop'));
  });

  it('opens one hardened window on the app page, with the bundled preload', () => {
    expect(fake.windows).toHaveLength(1);
    const prefs = fake.windows[0]!.options.webPreferences;
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(prefs.preload).toBe(path.join(root, 'out/preload/index.cjs'));
    expect(fs.existsSync(prefs.preload as string)).toBe(true);
    expect(fake.windows[0]!.loaded).toBe('app://gatehouse/index.html');
  });

  it('packaged: no DevTools in the window, and the page is shown once it has painted', () => {
    const window = fake.windows[0]!;
    expect(window.options.webPreferences.devTools).toBe(false);
    window.emit('ready-to-show');
    expect(window.visible).toBe(true);
  });

  it('starts the worker as a utility process with a minimal environment', () => {
    expect(fake.forks).toHaveLength(1);
    const f = fake.forks[0]!;
    expect(f.entry).toBe(path.join(root, 'out/main/worker.js'));
    expect(f.options).toMatchObject({ serviceName: 'Gatehouse worker', stdio: 'pipe' });
    const env = f.options.env as Record<string, string>;
    expect(env.GATEHOUSE_HOME).toBe(path.join(home, 'config'));
    expect(Object.keys(env).every((k) => !/TOKEN|KEY|SECRET|NODE_OPTIONS/i.test(k))).toBe(true);
  });

  it('answers every API channel from the app page, and a ping reaches the real worker', async () => {
    expect([...fake.ipcHandlers.keys()].sort()).toEqual(API_CHANNELS.map(ipcChannelName).sort());
    const reply = await callIpc(ipcChannelName('pingWorker'), {});
    expect(reply.ok).toBe(true);
    const pid = (reply.result as { pid: number }).pid;
    expect(pid).toBe(fake.forks[0]!.child.pid);
    expect(pid).not.toBe(process.pid);
  });

  it('refuses requests from a subframe, another webContents, another page or a dead frame', async () => {
    const channel = ipcChannelName('getAppInfo');
    const sub = new FakeFrame('app://gatehouse/index.html', 1, 2);
    sub.parent = contents.mainFrame;
    const otherPage = new FakeFrame('https://evil.example/', 1, 1);
    const dead = new FakeFrame('app://gatehouse/index.html', 1, 1);
    dead.destroyed = true;
    const sameUrlOtherFrame = new FakeFrame('app://gatehouse/index.html', 7, 9);
    for (const event of [
      appEvent(sub),
      appEvent(otherPage),
      appEvent(contents.mainFrame, {}),
      appEvent(null as unknown as FakeFrame),
      appEvent(dead),
      appEvent(sameUrlOtherFrame),
    ]) {
      const reply = await callIpc(channel, {}, event);
      expect(reply).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    const saved = contents.mainFrame.url;
    contents.mainFrame.url = 'https://evil.example/';
    try {
      expect(await callIpc(channel, {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    } finally {
      contents.mainFrame.url = saved;
    }
  });

  it('validates payloads, and pushes project changes to the window as events', async () => {
    expect(await callIpc(ipcChannelName('openProject'), { path: 7 })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    const sentBefore = contents.sent.length;
    expect(await callIpc(ipcChannelName('openProject'), { path: project })).toEqual({
      ok: true,
      result: { path: project },
    });
    expect(contents.sent.slice(sentBefore)).toContainEqual([
      IPC_EVENT_CHANNEL,
      { type: 'projectChanged', path: project },
    ]);
    const menu = fake.menu() as Array<{
      label?: string;
      submenu?: Array<{ label?: string; submenu?: Array<{ sublabel?: string }> }>;
    }>;
    const recent = menu[0]!.submenu!.find((i) => i.label === 'Open Recent')!.submenu!;
    expect(recent[0]!.sublabel).toBe(project);
  });

  it('View > Settings… in the menu brings the window forward and has the page show its Settings view', () => {
    const menu = fake.menu() as Array<{ label?: string; submenu?: Array<{ label?: string; click?: () => void }> }>;
    const settings = menu.find((m) => m.label === '&View')!.submenu!.find((i) => i.label === '&Settings…')!;
    const sentBefore = contents.sent.length;
    settings.click!();
    expect(contents.sent.slice(sentBefore)).toEqual([[IPC_EVENT_CHANNEL, { type: 'showView', view: 'settings' }]]);
  });

  it('serves the built renderer on app:// with a CSP, and nothing outside it', async () => {
    const handle = fake.protocolHandlers.get('app')!;
    const page = await handle(new Request('app://gatehouse/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<div id="root">');
    for (const url of [
      'app://gatehouse/..%2f..%2fpackage.json',
      'app://gatehouse/../main/index.js',
      'app://gatehouse/%2e%2e/preload/index.cjs',
      'app://evil/index.html',
    ]) {
      expect((await handle(new Request(url))).status, url).toBe(404);
    }
    expect((await handle(new Request('app://gatehouse/index.html', { method: 'POST', body: 'x' }))).status).toBe(404);
  });

  it('denies web permissions (except clipboard writes from the app page) and devices', () => {
    const decide = (permission: string, url: string) => {
      let granted: boolean | null = null;
      (fake.sessionHandlers.request as unknown as (...a: unknown[]) => void)(
        contents,
        permission,
        (g: boolean) => (granted = g),
        { requestingUrl: url },
      );
      return granted;
    };
    expect(decide('media', 'app://gatehouse/index.html')).toBe(false);
    expect(decide('notifications', 'app://gatehouse/index.html')).toBe(false);
    expect(decide('clipboard-sanitized-write', 'app://gatehouse/index.html')).toBe(true);
    expect(decide('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    const check = fake.sessionHandlers.check as unknown as (...a: unknown[]) => boolean;
    expect(check(contents, 'geolocation', 'app://gatehouse', {})).toBe(false);
    expect(check(contents, 'clipboard-sanitized-write', 'app://gatehouse', {})).toBe(true);
    expect((fake.sessionHandlers.device as unknown as () => boolean)()).toBe(false);
  });

  it('denies new windows (validated http(s) links go to the OS browser) and navigation away', () => {
    const open = contents.windowOpenHandler!;
    expect(open({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' });
    expect(open({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(open({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    const navigate = (name: string, url: string) => {
      let prevented = false;
      contents.emit(name, { url, preventDefault: () => (prevented = true) });
      return prevented;
    };
    expect(navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate('will-frame-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(navigate('will-navigate', 'app://gatehouse/index.html')).toBe(false);
    expect(navigate('will-attach-webview', 'x')).toBe(true);
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(fake.opened).toEqual(['https://example.com/docs', 'https://evil.example/']);
        resolve();
      }),
    );
  });

  it("saves the Settings page's key with safeStorage (encrypted file, 0600), never answers it, refuses without OS encryption", async () => {
    const key = 'sk-ant-desktop-main-0123456789-KEYX';
    const file = path.join(home, 'config', 'model-key.safe');
    const reply = await callIpc(ipcChannelName('saveApiKey'), { apiKey: key });
    expect(reply).toMatchObject({
      ok: true,
      result: { apiKey: { set: true, source: 'secure-store', storage: 'secure-store', last4: 'KEYX' } },
    });
    expect(JSON.stringify(reply)).not.toContain(key);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(key);
    expect(fs.existsSync(path.join(home, 'config', 'settings.yaml'))).toBe(false); // not in plain text anywhere
    expect(await callIpc(ipcChannelName('getChatState'), {})).toMatchObject({
      ok: true,
      result: { hasModelKey: true },
    });
    fake.safeStorage.available = false;
    try {
      const refused = await callIpc(ipcChannelName('saveApiKey'), { apiKey: `${key}2` });
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringMatching(/will not store the key/) },
      });
    } finally {
      fake.safeStorage.available = true;
    }
    expect(await callIpc(ipcChannelName('removeApiKey'), {})).toMatchObject({
      ok: true,
      result: { apiKey: { set: false } },
    });
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a crashed renderer is reloaded (the window shown); after repeated crashes a dialog offers Reload or Quit', async () => {
    const window = fake.windows[0]!;
    const loadsBefore = contents.loads.length;
    const crash = () => contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    crash();
    expect(contents.loads.length).toBe(loadsBefore + 1);
    expect(contents.loads.at(-1)).toBe('app://gatehouse/index.html');
    expect(window.visible).toBe(true);
    crash();
    crash();
    expect(contents.loads.length).toBe(loadsBefore + 3);
    expect(fake.messageBoxes).toHaveLength(0);
    fake.answerMessageBoxes(0); // Reload
    crash();
    expect(contents.loads.length).toBe(loadsBefore + 3);
    expect(fake.messageBoxes).toHaveLength(1);
    expect(fake.messageBoxes[0]!.options).toMatchObject({
      buttons: ['Reload', 'Quit'],
      detail: expect.stringMatching(/4 times.*crashed, exit code 139/),
    });
    await expect.poll(() => contents.loads.length).toBe(loadsBefore + 4);
    // A clean exit (the window closing) is not a crash.
    contents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(contents.loads.length).toBe(loadsBefore + 4);
  });

  it("Settings > Updates: the packaged app's version; without an update address, updates are off and say what to set", async () => {
    contents.emit('did-finish-load'); // the page reloaded after the crashes above listens again
    // 'idle' until the first automatic check (10 s after start-up; a loaded machine can get there first), then 'off'.
    expect(await callIpc(ipcChannelName('getUpdateStatus'), {})).toMatchObject({
      ok: true,
      result: { currentVersion: '0.1.0', state: expect.stringMatching(/^(idle|off)$/) },
    });
    const checked = await callIpc(ipcChannelName('checkForUpdates'), {});
    expect(checked).toMatchObject({
      ok: true,
      result: { state: 'off', message: expect.stringMatching(/No update server is set: add updates\.url/) },
    });
    expect(contents.sent).toContainEqual([
      IPC_EVENT_CHANNEL,
      { type: 'updateStatus', status: expect.objectContaining({ state: 'off' }) },
    ]);
    expect(await callIpc(ipcChannelName('installUpdate'), {})).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
  });

  it('a closed window is no longer a page: its events stop, and a new window gets them', async () => {
    const first = fake.windows[0]!;
    first.emit('closed');
    const sentBefore = first.webContents.sent.length;
    fake.app.emit('activate');
    const second = fake.windows[1]!;
    expect(second).toBeDefined();
    const reply = await callIpc(
      ipcChannelName('openProject'),
      { path: project },
      appEvent(second.webContents.mainFrame, second.webContents),
    );
    expect(reply).toMatchObject({ ok: true });
    expect(second.webContents.sent).toContainEqual([IPC_EVENT_CHANNEL, { type: 'projectChanged', path: project }]);
    expect(first.webContents.sent.length).toBe(sentBefore);
  });

  it('View > Rules with no window opens one and hands it the view once its page has loaded (not before)', () => {
    const before = fake.windows.length;
    fake.windows.at(-1)!.close();
    const menu = fake.menu() as Array<{ label?: string; submenu?: Array<{ label?: string; click?: () => void }> }>;
    menu.find((m) => m.label === '&View')!.submenu!.find((i) => i.label === '&Rules')!.click!();
    expect(fake.windows).toHaveLength(before + 1);
    const fresh = fake.windows.at(-1)!.webContents;
    const views = () => fresh.sent.filter(([, e]) => (e as { type: string }).type === 'showView');
    expect(views()).toEqual([]);
    fresh.emit('did-finish-load');
    expect(views()).toEqual([[IPC_EVENT_CHANNEL, { type: 'showView', view: 'rules' }]]);
  });

  it('File > Open Folder… with no window (macOS) asks without a parent, then opens a window on the folder', async () => {
    const before = fake.windows.length;
    fake.windows.at(-1)!.close();
    const other = path.join(home, 'other-project');
    fs.mkdirSync(other, { recursive: true });
    const dialogsBefore = fake.openDialogs.length;
    pick = other;
    const menu = fake.menu() as Array<{ label?: string; submenu?: Array<{ label?: string; click?: () => void }> }>;
    menu.find((m) => m.label === '&File')!.submenu!.find((i) => i.label === 'Open Folder…')!.click!();
    await expect.poll(() => fake.windows.length).toBe(before + 1);
    expect(fake.openDialogs.slice(dialogsBefore)).toEqual([{ parent: false }]);
    const reply = await callIpc(
      ipcChannelName('getAppInfo'),
      {},
      appEvent(fake.windows.at(-1)!.webContents.mainFrame, fake.windows.at(-1)!.webContents),
    );
    expect(reply).toMatchObject({ ok: true, result: { project: other } });
  });

  it('a second launch with a folder opens it in this instance (its exact arguments travel as additionalData)', async () => {
    expect(fake.app.lockData).toEqual({ args: [], cwd: process.cwd() });
    const third = path.join(home, 'third');
    fs.mkdirSync(third);
    const window = fake.windows.at(-1)!;
    const focusedBefore = window.focused;
    fake.app.emit(
      'second-instance',
      {},
      ['/opt/Gatehouse/gatehouse-desktop', '--original-process-start-time=1', 'ignored'],
      '/',
      { args: ['third'], cwd: home },
    );
    expect(fake.windows.at(-1)).toBe(window);
    // the folder is checked without blocking the main thread: the window comes forward once it is open
    await expect.poll(() => window.focused).toBe(focusedBefore + 1);
    expect(window.webContents.sent).toContainEqual([IPC_EVENT_CHANNEL, { type: 'projectChanged', path: third }]);
    // Not a folder: said plainly, and the window still comes forward.
    const errorsBefore = fake.errorBoxes.length;
    fake.app.emit('second-instance', {}, [], '/', { args: ['/nonexistent/place'], cwd: '/' });
    await expect
      .poll(() => fake.errorBoxes.slice(errorsBefore))
      .toEqual([['Cannot open folder', expect.stringContaining('/nonexistent/place')]]);
    await expect.poll(() => window.focused).toBe(focusedBefore + 2);
  });

  it('stops the worker when the app quits', async () => {
    const pid = fake.forks[0]!.child.pid!;
    let prevented = false;
    fake.app.emit('will-quit', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    await expect.poll(() => fake.app.quits).toBe(1);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
