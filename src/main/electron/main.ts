// Electron main entry (bundled to out/main/index.js): the desktop shell around the core.
// Security posture: every renderer sandboxed, the renderer served from app:// (not file://), no new windows,
// no navigation away, no web permissions, IPC only from the app's own page, contract-validated (see ipc.ts).
import path from 'node:path';
import type { BrowserWindow } from 'electron';
import { app, dialog, Menu, safeStorage, session } from 'electron';
import { AppCore } from '../app/app-core';
import { userConfigDir } from '../paths';
import { buildWorkerEnv, workerEntryPath, WorkerSupervisor } from '../worker-host';
import { APP_PAGE_URL } from './app-assets';
import { registerApiIpc } from './ipc';
import { buildAppMenuTemplate } from './menu-template';
import { SafeStorageKeyStore } from './safe-storage-key-store';
import { UtilityProcessLauncher } from './utility-launcher';
import { appPagesFor, isAppPageUrl } from './url-policy';
import { hardenSession, hardenWebContents, registerAppScheme, serveAppScheme } from './web-security';
import { bundlePaths, createMainWindow, isAppFrame } from './window';
import { linkWindowEvents } from './window-events';

const STOP_TIMEOUT_MS = 3_000;

const configDir = userConfigDir();
// Chromium's own files (cache, cookies, the single-instance lock) live in a subfolder of our config dir, so
// GATEHOUSE_HOME isolates a whole instance and the config root holds only Gatehouse's files.
app.setName('Gatehouse');
app.setPath('userData', path.join(configDir, 'desktop'));
app.enableSandbox();
registerAppScheme();

const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const appPages = appPagesFor(APP_PAGE_URL, devServerUrl);
const isAppPage = (url: string): boolean => isAppPageUrl(url, appPages);

// Every webContents, ours or any other, gets the same guards (before anything can load).
app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, isAppPage));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void startDesktop().catch((err: unknown) => {
    dialog.showErrorBox('Gatehouse could not start', err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
}

async function startDesktop(): Promise<void> {
  await app.whenReady();
  const bundle = bundlePaths(__dirname);
  hardenSession(session.defaultSession, isAppPage);
  serveAppScheme(bundle.renderer);

  let window: BrowserWindow | null = null;
  const worker = new WorkerSupervisor({
    launcher: new UtilityProcessLauncher(),
    entry: workerEntryPath(__dirname),
    env: buildWorkerEnv(process.env, { GATEHOUSE_HOME: configDir }),
  });
  const core = new AppCore({
    shell: 'desktop',
    worker,
    configDir,
    project: null,
    // The model key saved on the Settings page: encrypted by the OS (never plain text; refused without a keychain).
    secrets: new SafeStorageKeyStore(safeStorage, configDir),
    pickFolder: async () => {
      const options = { title: 'Open Folder', properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> };
      const picked = window && !window.isDestroyed() ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
  });

  registerApiIpc(core, (frame, sender) => isAppFrame(window, frame, sender, isAppPage));

  const openProject = (dir: string): void => {
    try {
      core.openProject(dir);
    } catch (err) {
      dialog.showErrorBox('Cannot open folder', err instanceof Error ? err.message : String(err));
    }
  };
  const installMenu = (): void => {
    const template = buildAppMenuTemplate({
      appName: 'Gatehouse',
      isMac: process.platform === 'darwin',
      isPackaged: app.isPackaged,
      recentProjects: core.recent.list(),
      openFolder: () => {
        void core.handlers.openFolderDialog({}).then(({ path: dir }) => dir && openProject(dir));
      },
      openRecent: openProject,
      showView: (view) => {
        showWindow();
        core.showView(view);
      },
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };
  installMenu();
  // The menu watches without being a page: a closed window leaves nobody to answer an approval (it is denied).
  core.watch((event) => {
    if (event.type === 'projectChanged') installMenu();
  });

  const showWindow = (): void => {
    if (window && !window.isDestroyed()) {
      if (window.isMinimized()) window.restore();
      window.focus();
      return;
    }
    window = createMainWindow({ preload: bundle.preload, title: 'Gatehouse' });
    const shown = window;
    // Events reach the page while it lives; closing it or losing its renderer denies waiting approvals.
    linkWindowEvents(core, shown, isAppPage);
    shown.once('ready-to-show', () => shown.show());
    shown.on('closed', () => {
      if (window === shown) window = null;
    });
    shown.webContents.on('render-process-gone', (_event, details) => {
      console.error(`[gatehouse] renderer gone: ${details.reason} (exit code ${details.exitCode})`);
    });
    void shown.loadURL(devServerUrl ?? APP_PAGE_URL);
  };

  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let stopping = false;
  app.on('will-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref());
    void Promise.race([worker.stop(), timeout])
      .catch(() => undefined)
      .finally(() => app.quit());
  });

  showWindow();
  // A worker that cannot start is reported through its status (AppCore forwards it): no dialog loop here.
  void worker.start().catch((err: unknown) => {
    console.error(`[gatehouse] worker: ${err instanceof Error ? err.message : String(err)}`);
  });
}
