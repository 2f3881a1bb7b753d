// Electron main entry (bundled to out/main/index.js): the desktop shell around the core.
// Security posture: every renderer sandboxed, the renderer served from app:// (not file://), no new windows,
// no navigation away, no web permissions, IPC only from the app's own page, contract-validated (see ipc.ts);
// packaged builds refuse remote debugging and have no DevTools.
import path from 'node:path';
import { app, dialog, Menu, safeStorage, screen, session } from 'electron';
import { AppCore } from '../../services/app/app-core';
import { flushLogs, openLog } from '../../core/log/logger';
import { userConfigDir } from '../../core/fs/config-dir';
import { flushLastGoodWrites } from '../../core/settings/last-good-cache';
import { trustNetworkSettingsInProcess } from '../../core/network/process-trust';
import { workerTrustEnv } from '../../core/network/worker-trust-env';
import { buildWorkerEnv } from '../../services/worker-host/worker-env';
import { workerEntryPath } from '../../services/worker-host/worker-entry';
import { workerOutputSink } from '../../services/worker-host/node-launcher';
import { WorkerSupervisor } from '../../services/worker-host/supervisor';
import { APP_PAGE_URL } from './app-assets';
import { APP_ID } from './app-identity';
import { AppWindow } from './app-window';
import { createApprovalNotifier } from './approval-notifier';
import { workerFailureHandler } from './crash-recovery';
import type { AskUser } from './crash-recovery';
import { takeRefusedSwitches } from './debug-switches';
import { registerApiIpc } from './ipc';
import { launchFromSecondInstance, launchTarget, userArgs } from './launch-args';
import type { LaunchRequest, LaunchTarget } from './launch-args';
import { LoginShellPathCache, mergePath, needsLoginShellPath } from './login-shell-path';
import type { LoginShellPath } from './login-shell-path';
import { buildAppMenuTemplate } from './menu-template';
import { folderFromLink, LINK_SCHEME, OpenRequests } from './open-requests';
import type { OpenRequest } from './open-requests';
import { QuitGuard } from './quit-guard';
import { SafeStorageKeyStore } from './safe-storage-key-store';
import { loadElectronUpdater } from './electron-updater-loader';
import { resolveUpdateFeed } from './update-feed';
import { DesktopUpdates } from './updates';
import { UtilityProcessLauncher } from './utility-launcher';
import { appPagesFor, isAppPageUrl } from './url-policy';
import { hardenSession, hardenWebContents, registerAppScheme, serveAppScheme } from './web-security';
import { bundlePaths, isAppFrame } from './window';
import { windowToRestore } from './window-bounds';
import { WindowStateFile } from './window-state';
import { WorkerAfterPath } from './worker-after-path';

const STOP_TIMEOUT_MS = 3_000;

// Problems go to <config>/logs/main.log (redacted, written asynchronously); in development also to stderr.
const mainLog = openLog(userConfigDir(), 'main');
const log = (line: string): void => {
  mainLog.warn(line);
  if (!app.isPackaged) console.error(`[gatehouse] ${line}`);
};
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

// Nothing may reject unseen: a stray rejection is logged, not lost (and never takes the app down).
process.on('unhandledRejection', (reason) =>
  log(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`),
);

const refused = app.isPackaged ? takeRefusedSwitches(app.commandLine, process.argv) : [];
if (refused.length > 0) {
  // Removed from Chromium's command line above, so the DevTools server never starts; then the app exits.
  console.error(
    `Gatehouse will not start with ${refused.map((s) => `--${s}`).join(', ')}: a packaged build cannot be remote-controlled or debugged.`,
  );
  app.exit(1);
} else {
  prepare();
}

function prepare(): void {
  const configDir = userConfigDir();
  // Chromium's own files (cache, cookies, the single-instance lock) live in a subfolder of our config dir, so
  // GATEHOUSE_HOME isolates a whole instance and the config root holds only Gatehouse's files.
  app.setName('Gatehouse');
  // Windows shows notifications (approvals waiting) only from an app linked to its Start menu shortcut's id.
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  app.setPath('userData', path.join(configDir, 'desktop'));
  app.enableSandbox();
  registerAppScheme();

  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const appPages = appPagesFor(APP_PAGE_URL, devServerUrl);
  const isAppPage = (url: string): boolean => isAppPageUrl(url, appPages);

  // Every webContents, ours or any other, gets the same guards (before anything can load).
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, isAppPage));

  const launch: LaunchRequest = {
    args: userArgs(process.argv, process.defaultApp === true, app.getAppPath(), process.cwd()),
    cwd: process.cwd(),
  };
  if (!app.requestSingleInstanceLock(launch)) {
    app.quit();
    return;
  }
  // Folders the OS asks to open: macOS sends them before `ready` (a folder dropped on the Dock icon started the
  // app), so they are listened for now and kept until the window exists.
  const opens = new OpenRequests();
  app.on('open-file', (event, file) => {
    event.preventDefault();
    opens.push({ kind: 'folder', path: file });
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    opens.push({ kind: 'link', url });
  });
  // gatehouse://open?path=… links: on macOS they arrive as open-url, on Windows as the one argument after the
  // executable (Electron refuses to start when anything but `--` follows a URL argument, so a crafted link cannot add
  // switches). Linux registers the scheme in the package's .desktop file. A development build never claims the
  // scheme for the bare Electron binary.
  if (app.isPackaged && (process.platform === 'darwin' || process.platform === 'win32'))
    app.setAsDefaultProtocolClient(LINK_SCHEME);
  // Asked while Electron starts: a desktop launch gets the login shell's PATH for the agent's commands.
  const shellPath = needsLoginShellPath(process.platform, process.env)
    ? new LoginShellPathCache({ shell: process.env.SHELL, env: process.env }).get()
    : null;
  startDesktop({ configDir, devServerUrl, isAppPage, launch, shellPath, opens }).catch((err: unknown) => {
    dialog.showErrorBox('Gatehouse could not start', describe(err));
    app.exit(1);
  });
}

interface StartOptions {
  configDir: string;
  devServerUrl: string | undefined;
  isAppPage: (url: string) => boolean;
  launch: LaunchRequest;
  shellPath: Promise<LoginShellPath> | null;
  opens: OpenRequests;
}

async function startDesktop(o: StartOptions): Promise<void> {
  const { configDir, devServerUrl, isAppPage, launch, opens } = o;
  await app.whenReady();
  const bundle = bundlePaths(__dirname);
  hardenSession(session.defaultSession, isAppPage);
  serveAppScheme(bundle.renderer);
  const windowState = await WindowStateFile.open(configDir, log);

  // The worker's environment is read at each (re)start: the login shell's PATH goes in before the first one, and
  // into main's own environment, which the hooks main runs get (see worker-after-path.ts).
  const workerEnv = buildWorkerEnv(process.env, { GATEHOUSE_HOME: configDir });
  const pathReady = (o.shellPath ?? Promise.resolve(null)).then((found) => {
    if (!found) return;
    if ('path' in found) {
      process.env.PATH = mergePath(found.path, process.env.PATH);
      workerEnv.PATH = process.env.PATH;
    } else {
      log(`PATH from the login shell: ${found.error}; using the PATH the app was started with`);
    }
  });
  const worker = new WorkerSupervisor({
    launcher: new UtilityProcessLauncher(workerOutputSink(openLog(configDir, 'worker'), !app.isPackaged)),
    log: mainLog,
    entry: workerEntryPath(__dirname),
    env: workerEnv,
    // Electron ignores NODE_EXTRA_CA_CERTS (the nodeOptions fuse): the settings' CA files go to the worker this way.
    envExtras: () => workerTrustEnv({ configDir, env: process.env }),
  });
  // Auto mode's classifier, called from this process, trusts the same authorities as the worker.
  trustNetworkSettingsInProcess({ configDir, env: process.env });
  let appWindow: AppWindow | null = null;
  const updates = new DesktopUpdates({
    currentVersion: app.getVersion(),
    packaged: app.isPackaged,
    loadUpdater: async () => loadElectronUpdater(),
    resolveFeed: () =>
      resolveUpdateFeed({
        configDir,
        resourcesDir: app.isPackaged ? process.resourcesPath : undefined,
        platform: process.platform,
      }),
    log,
    confirmRestart: () => guard.confirm('update'),
  });
  const core = new AppCore({
    shell: 'desktop',
    worker: new WorkerAfterPath(worker, pathReady, (line) => mainLog.info(line)),
    configDir,
    project: null,
    // The model key saved on the Settings page: encrypted by the OS (never plain text; refused without a keychain).
    secrets: new SafeStorageKeyStore(safeStorage, configDir),
    updates,
    pickFolder: async () => {
      const options = {
        title: 'Open Folder',
        properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'>,
      };
      const parent = appWindow?.current();
      const picked = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
  });

  const ask: AskUser = async ({ type, title, message, detail, buttons, cancel }) => {
    const box = {
      type: type ?? 'error',
      title,
      message,
      detail,
      buttons,
      defaultId: 0,
      cancelId: cancel,
      noLink: true,
    };
    const parent = appWindow?.current();
    return (parent ? await dialog.showMessageBox(parent, box) : await dialog.showMessageBox(box)).response;
  };
  const quit = (): void => app.quit();
  // A running turn is not ended unasked: quitting, closing the last window (which quits, except on macOS, where the
  // app and its run go on without a window) and "Restart to update" all ask first.
  const guard = new QuitGuard({
    running: () => core.chat.isRunning(),
    stopRun: () => core.chat.stopRun(),
    ask,
    log,
  });
  app.on('before-quit', (event) => guard.intercept(event, 'quit', quit));
  const shown = new AppWindow({
    core,
    preload: bundle.preload,
    pageUrl: devServerUrl ?? APP_PAGE_URL,
    isAppPage,
    devTools: !app.isPackaged,
    ask,
    quit,
    log,
    placement: () => windowToRestore(windowState.layouts(), screen.getAllDisplays()),
    remember: (saved) => void windowState.saveWindow(saved, screen.getAllDisplays()),
    ...(process.platform === 'darwin' ? {} : { beforeClose: (event) => guard.intercept(event, 'close', quit) }),
  });
  appWindow = shown;

  registerApiIpc(core, (frame, sender) => isAppFrame(shown.current(), frame, sender, isAppPage));

  /** Opens a folder (menu, recent list, command line, a second instance) and shows the window, even if it fails. */
  const openProject = (dir: string): void => {
    core
      .openProject(dir)
      .catch((err: unknown) => dialog.showErrorBox('Cannot open folder', describe(err)))
      .finally(() => shown.show());
  };
  /** A link names a folder: refused plainly when malformed, else opened only once the person agrees. */
  const openLink = (url: string): void => {
    shown.show();
    const parsed = folderFromLink(url, process.platform);
    if ('error' in parsed) {
      log(`link refused: ${parsed.error}`);
      dialog.showErrorBox(
        'Cannot open link',
        `Gatehouse opens links of the form gatehouse://open?path=FOLDER: ${parsed.error}.`,
      );
      return;
    }
    void ask({
      type: 'question',
      title: 'Gatehouse',
      message: 'Open this folder in Gatehouse?',
      detail:
        `${parsed.folder}\n\nA link asked to open it. Opening a folder runs nothing; untrusted folders stay untrusted.` +
        (core.chat.isRunning() ? ' The run in progress stops.' : ''),
      buttons: ['Open', 'Cancel'],
      cancel: 1,
    }).then((choice) => {
      if (choice === 0) openProject(parsed.folder);
    });
  };
  const openTarget = (target: LaunchTarget): void => {
    if (!target) shown.show();
    else if ('link' in target) openLink(target.link);
    else openProject(target.folder);
  };
  const openRequest = (request: OpenRequest): void =>
    request.kind === 'folder' ? openProject(request.path) : openLink(request.url);
  const installMenu = (): void => {
    const template = buildAppMenuTemplate({
      appName: 'Gatehouse',
      isMac: process.platform === 'darwin',
      isPackaged: app.isPackaged,
      recentProjects: core.recent.list(),
      // With no window (macOS keeps running after the last one closes) the picker is app-modal, then the window
      // opens on the folder.
      openFolder: () => {
        core.handlers
          .openFolderDialog({})
          .then(({ path: dir }) => dir && openProject(dir))
          .catch((err: unknown) => dialog.showErrorBox('Cannot open folder', describe(err)));
      },
      openRecent: openProject,
      showView: (view) => shown.showView(view),
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };
  installMenu();
  void core.recent.settled().then(installMenu); // the recent list is read without blocking: shown once it is in
  // The menu watches without being a page: a closed window leaves nobody to answer an approval (it is denied).
  core.watch((event) => {
    if (event.type !== 'projectChanged') return;
    installMenu();
    if (event.path) void windowState.saveLastProject(event.path);
  });
  // An approval waiting behind an unfocused window: a notification and the dock/taskbar badge.
  core.watch(createApprovalNotifier({ window: () => shown.current(), show: () => shown.show() }));

  // A second launch (`gatehouse-desktop ~/code/app` while the app runs) opens its folder here.
  app.on('second-instance', (_event, argv, workingDirectory, additionalData) =>
    openTarget(launchFromSecondInstance(argv, workingDirectory, additionalData)),
  );
  app.on('activate', () => shown.show());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let stopping = false;
  app.on('will-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    updates.stop();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref());
    // The chat session ends (a run in progress is cancelled, its transcript and the audit log complete), then the
    // worker stops; the settings' last-good entries and the window's place being recorded are finished (not left
    // half made), then main.log has every line.
    const stopCore = core.close().then(() => worker.stop());
    const written = Promise.all([stopCore, flushLastGoodWrites(), windowState.settled()]).then(() => flushLogs());
    void Promise.race([written, timeout])
      .catch(() => undefined)
      .finally(() => app.quit());
  });

  // The launch's folder or link; else what the OS handed over before the window existed; else, with neither, the
  // project the window showed last (quietly left closed if it is gone).
  const initial = launchTarget(launch.args, launch.cwd);
  const last = windowState.lastProject();
  if (initial || opens.waiting() || !last) openTarget(initial);
  else
    void core
      .openProject(last)
      .catch((err: unknown) => log(`the last project was not reopened: ${describe(err)}`))
      .finally(() => shown.show());
  opens.attach(openRequest);

  // The supervisor restarts a crashed worker itself; when it gives up, the person decides.
  worker.onStatus(workerFailureHandler({ ask, restart: () => worker.start(), quit, log }));
  // A worker that cannot start is reported through its status (AppCore forwards it). Not after a quit that came
  // while the login shell was still being asked.
  void pathReady.then(() => {
    if (!stopping) void worker.start().catch((err: unknown) => log(`worker: ${describe(err)}`));
  });
  updates.startAutomaticChecks();
}
