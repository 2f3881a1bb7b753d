import { EventEmitter } from 'node:events';
import { NodeAsUtilityProcess } from './node-utility-process';

/**
 * Just enough of Electron's main-process API, recording what the app does with it, to run the built main bundle
 * (out/main/index.js) under plain Node. The worker is a real process (NodeAsUtilityProcess).
 */
type Handler = (...args: never[]) => unknown;

export class FakeFrame {
  parent: FakeFrame | null = null;
  destroyed = false;
  constructor(
    public url: string,
    public processId = 1,
    public routingId = 1,
  ) {}
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  /** Every URL loaded into it, in order (a reload after a crash is a second load). */
  readonly loads: string[] = [];
  readonly sent: Array<[string, unknown]> = [];
  readonly mainFrame = new FakeFrame('');
  destroyed = false;
  setWindowOpenHandler(h: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = h;
  }
  getURL(): string {
    return this.mainFrame.url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
}

/**
 * Electron's safeStorage (the asynchronous API only: the app must not call the deprecated synchronous one),
 * reversibly "encrypted" so a test can see that the stored bytes are not the plain text. `available: false` is a
 * machine without a keychain; `backend: 'basic_text'` is Linux without a secret service; `rotated` is an OS that
 * moved to a new key (data under the old one decrypts with shouldReEncrypt).
 */
export class FakeSafeStorage {
  available = true;
  backend = 'gnome_libsecret';
  rotated = false;
  calls = 0;
  private prefix(): string {
    return this.rotated ? 'v11' : 'v10';
  }
  async encryptStringAsync(plain: string): Promise<Buffer> {
    this.calls++;
    if (!this.available)
      throw new Error(
        'Error while encrypting the text provided to safeStorage.encryptStringAsync. Encryption is not available.',
      );
    return Buffer.concat([Buffer.from(this.prefix()), Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)]);
  }
  async decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }> {
    this.calls++;
    if (!this.available)
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptStringAsync. Decryption is not available.',
      );
    const prefix = encrypted.subarray(0, 3).toString();
    if (prefix !== 'v10' && prefix !== 'v11')
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptStringAsync.');
    return {
      shouldReEncrypt: prefix !== this.prefix(),
      result: Buffer.from(encrypted.subarray(3).map((b) => b ^ 0x5a)).toString('utf8'),
    };
  }
  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return this.available;
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
}

export interface MessageBoxCall {
  parent: boolean;
  options: { type?: string; title?: string; message: string; detail?: string; buttons?: string[] };
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A display as screen.getAllDisplays() describes it (work area: the bounds less a 25 px menu bar). */
export function fakeDisplay(bounds: Rect, scaleFactor = 1) {
  return { bounds, workArea: { ...bounds, y: bounds.y + 25, height: bounds.height - 25 }, scaleFactor };
}

export function createFakeElectron(options: {
  pickFolder: () => string | null;
  switches?: string[];
  displays?: Array<ReturnType<typeof fakeDisplay>>;
}) {
  const switches = new Set(options.switches ?? []);
  const displays = options.displays ?? [fakeDisplay({ x: 0, y: 0, width: 1920, height: 1080 })];
  const app = new (class extends EventEmitter {
    isPackaged = true;
    name = '';
    readonly paths: Record<string, string> = {};
    sandboxEnabled = false;
    quits = 0;
    exitCode: number | null = null;
    lockData: unknown = undefined;
    appUserModelId: string | null = null;
    readonly protocolClients: string[] = [];
    readonly commandLine = {
      hasSwitch: (name: string) => switches.has(name),
      removeSwitch: (name: string) => void switches.delete(name),
      switches,
    };
    private resolveReady: () => void = () => undefined;
    readonly ready = new Promise<void>((r) => (this.resolveReady = r));
    setName(n: string) {
      this.name = n;
    }
    setPath(n: string, p: string) {
      this.paths[n] = p;
    }
    enableSandbox() {
      this.sandboxEnabled = true;
    }
    setAppUserModelId(id: string) {
      this.appUserModelId = id;
    }
    setAsDefaultProtocolClient(protocol: string) {
      this.protocolClients.push(protocol);
      return true;
    }
    getVersion() {
      return '0.1.0';
    }
    getAppPath() {
      return '/opt/Gatehouse/resources/app.asar';
    }
    requestSingleInstanceLock(data?: unknown) {
      this.lockData = data;
      return true;
    }
    whenReady() {
      return this.ready;
    }
    fireReady() {
      this.resolveReady();
    }
    quit() {
      this.quits++;
    }
    exit(code = 0) {
      this.exitCode = code;
    }
  })();

  const windows: FakeBrowserWindow[] = [];
  class FakeBrowserWindow extends EventEmitter {
    readonly webContents = new FakeWebContents();
    loaded: string | null = null;
    visible = false;
    destroyed = false;
    focused = 0;
    maximized = false;
    bounds: Rect;
    constructor(
      public readonly options: { webPreferences: Record<string, unknown> } & Partial<Rect> & {
          width?: number;
          height?: number;
        },
    ) {
      super();
      this.bounds = {
        x: options.x ?? 100,
        y: options.y ?? 100,
        width: options.width ?? 800,
        height: options.height ?? 600,
      };
      windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    async loadURL(url: string) {
      this.loaded = url;
      this.webContents.loads.push(url);
      this.webContents.mainFrame.url = url;
    }
    /** What Electron does when the window closes: 'close' (which a listener may prevent), destroyed, 'closed'. */
    close() {
      let prevented = false;
      this.emit('close', { preventDefault: () => (prevented = true) });
      if (prevented) return false;
      this.destroyed = true;
      this.webContents.destroyed = true;
      this.emit('closed');
      return true;
    }
    /** The person moves or resizes the window. */
    setBounds(bounds: Rect) {
      this.bounds = { ...bounds };
      this.emit('move');
      this.emit('resize');
    }
    getNormalBounds() {
      return { ...this.bounds };
    }
    isMaximized() {
      return this.maximized;
    }
    maximize() {
      this.maximized = true;
      this.visible = true;
      this.emit('maximize');
    }
    isDestroyed() {
      return this.destroyed;
    }
    isMinimized() {
      return false;
    }
    isVisible() {
      return this.visible;
    }
    restore() {}
    focus() {
      this.focused++;
    }
    show() {
      this.visible = true;
    }
  }

  const ipcHandlers = new Map<string, Handler>();
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const schemes: unknown[] = [];
  const sessionHandlers: Record<string, Handler> = {};
  const session = new (class extends EventEmitter {
    setPermissionRequestHandler(h: Handler) {
      sessionHandlers.request = h;
    }
    setPermissionCheckHandler(h: Handler) {
      sessionHandlers.check = h;
    }
    setDevicePermissionHandler(h: Handler) {
      sessionHandlers.device = h;
    }
  })();
  const opened: string[] = [];
  const messageBoxes: MessageBoxCall[] = [];
  const errorBoxes: Array<[string, string]> = [];
  let messageBoxAnswer = 0;
  const openDialogs: Array<{ parent: boolean }> = [];
  const forks: Array<{ entry: string; options: Record<string, unknown>; child: NodeAsUtilityProcess }> = [];
  let menu: unknown = null;
  const safeStorage = new FakeSafeStorage();

  const electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      handle: (channel: string, fn: Handler) => {
        if (ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        ipcHandlers.set(channel, fn);
      },
      removeHandler: (channel: string) => ipcHandlers.delete(channel),
    },
    protocol: {
      registerSchemesAsPrivileged: (s: unknown[]) => schemes.push(...s),
      handle: (scheme: string, h: (request: Request) => Promise<Response>) => protocolHandlers.set(scheme, h),
    },
    session: { defaultSession: session },
    screen: { getAllDisplays: () => displays },
    safeStorage,
    shell: { openExternal: async (url: string) => void opened.push(url) },
    dialog: {
      showOpenDialog: async (...args: unknown[]) => {
        openDialogs.push({ parent: args.length > 1 });
        const picked = options.pickFolder();
        return { canceled: picked === null, filePaths: picked ? [picked] : [] };
      },
      showErrorBox: (title: string, content: string) => void errorBoxes.push([title, content]),
      showMessageBox: async (...args: unknown[]) => {
        messageBoxes.push({ parent: args.length > 1, options: args[args.length - 1] as MessageBoxCall['options'] });
        return { response: messageBoxAnswer, checkboxChecked: false };
      },
    },
    Menu: {
      buildFromTemplate: (t: unknown) => t,
      setApplicationMenu: (m: unknown) => (menu = m),
    },
    utilityProcess: {
      fork: (entry: string, _args: string[], forkOptions: { env: Record<string, string> }) => {
        const child = new NodeAsUtilityProcess(entry, forkOptions.env);
        // The environment as it was at the fork (main may change its object later, for the next start).
        forks.push({ entry, options: { ...forkOptions, env: { ...forkOptions.env } }, child });
        return child;
      },
    },
  };

  return {
    electron,
    app,
    windows,
    ipcHandlers,
    protocolHandlers,
    schemes,
    session,
    sessionHandlers,
    opened,
    forks,
    safeStorage,
    messageBoxes,
    errorBoxes,
    openDialogs,
    answerMessageBoxes: (button: number) => (messageBoxAnswer = button),
    /** The connected displays: a test plugs one in or out by changing this list. */
    displays,
    menu: () => menu,
  };
}
