import { GatehouseError } from '../../../shared/errors';
import type { UpdateState, UpdateStatus } from '../../../shared/updates-contract';

/** The part of electron-updater's `autoUpdater` used here (structural, so tests drive a fake). */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  logger: { info(m: unknown): void; warn(m: unknown): void; error(m: unknown): void } | null;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-available', listener: (info: { version: string }) => void): unknown;
  /** `downloadedFile`: where the downloaded installer or package is. */
  on(event: 'update-downloaded', listener: (info: { version: string; downloadedFile?: string }) => void): unknown;
  on(event: 'update-not-available', listener: () => void): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * The updater for this copy of the app, and the package manager that installed it (a Linux deb, rpm or pacman
 * package), or null when the app replaces itself (Windows, macOS, AppImage).
 */
export interface LoadedUpdater {
  updater: UpdaterLike;
  packageManager: 'deb' | 'rpm' | 'pacman' | null;
}

/** Where updates come from now: an https folder holding latest*.yml, or why updates are off. */
export type UpdateFeed = { url: string } | { off: string };

export interface DesktopUpdatesOptions {
  currentVersion: string;
  /** Development builds never update themselves. */
  packaged: boolean;
  /** electron-updater's updater, loaded on the first check (not at start-up: it reads the app's resources). */
  loadUpdater: () => Promise<LoadedUpdater>;
  /** Read before every check: the user may have changed `updates.url` meanwhile. */
  resolveFeed: () => Promise<UpdateFeed>;
  log: (line: string) => void;
  /** Asked before "Restart to update" quits: false (a turn runs and the person chose to wait) keeps the app open. */
  confirmRestart?: () => Promise<boolean>;
  now?: () => Date;
}

const firstLine = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

/**
 * The desktop app's updates, with electron-updater: a generic https feed (the user's `updates.url`, else the
 * address built into the package), downloaded in the background once found, checked against the sha512 in the
 * feed and, on Windows and macOS, against the app's code signature (electron-updater / Squirrel.Mac), installed
 * on quit or with "Restart to update". A deb or rpm is never installed at quit: its package manager needs root,
 * and a password prompt would come up as the app closes; the person installs it ("Restart to update", or the
 * package file themselves). The status is pushed to the page as it changes.
 */
export class DesktopUpdates {
  private current: UpdateStatus;
  private readonly listeners = new Set<(status: UpdateStatus) => void>();
  private updater: UpdaterLike | null = null;
  private packageManager: LoadedUpdater['packageManager'] = null;
  private feedUrl: string | null = null;
  private checking: Promise<UpdateStatus> | null = null;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly o: DesktopUpdatesOptions) {
    this.current = o.packaged
      ? this.make('idle', 'Updates have not been checked yet.')
      : this.make('unavailable', 'This is a development build: it does not update itself.');
  }

  status(): UpdateStatus {
    return this.current;
  }

  onStatus(listener: (status: UpdateStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Checks `firstAfterMs` after start-up, then every `everyMs` (packaged builds only). */
  startAutomaticChecks(firstAfterMs = 10_000, everyMs = 12 * 60 * 60 * 1000): void {
    if (!this.o.packaged) return;
    const check = (): void => void this.check().catch((err: unknown) => this.o.log(`update check: ${firstLine(err)}`));
    const first = setTimeout(check, firstAfterMs);
    const every = setInterval(check, everyMs);
    first.unref();
    every.unref();
    this.timers.push(first, every);
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }

  /** Asks the update server now; one check at a time. Resolves with the status once the check is over. */
  check(): Promise<UpdateStatus> {
    if (!this.o.packaged) return Promise.resolve(this.current);
    if (this.current.state === 'downloading' || this.current.state === 'ready') return Promise.resolve(this.current);
    this.checking ??= this.runCheck().finally(() => (this.checking = null));
    return this.checking;
  }

  /**
   * Quits and installs the downloaded update, once the person agreed to stop a running turn (asked before the updater
   * starts anything: its installer must not run for an app that stays open).
   */
  async install(): Promise<UpdateStatus> {
    if (this.current.state !== 'ready' || !this.updater)
      throw new GatehouseError('BAD_REQUEST', 'no update has been downloaded yet');
    const updater = this.updater;
    if (this.o.confirmRestart && !(await this.o.confirmRestart())) return this.current;
    this.o.log(`installing Gatehouse ${this.current.version ?? ''}`);
    updater.quitAndInstall(false, true);
    return this.current;
  }

  private async runCheck(): Promise<UpdateStatus> {
    let feed: UpdateFeed;
    try {
      feed = await this.o.resolveFeed();
    } catch (err) {
      return this.set('error', `Cannot read the update settings: ${firstLine(err)}`);
    }
    if ('off' in feed) return this.set('off', feed.off);
    let updater: UpdaterLike;
    try {
      updater = await this.loaded();
    } catch (err) {
      return this.set('error', `The updater could not start: ${firstLine(err)}`);
    }
    if (feed.url !== this.feedUrl) {
      updater.setFeedURL({ provider: 'generic', url: feed.url });
      this.feedUrl = feed.url;
    }
    this.set('checking', `Checking ${new URL(feed.url).host} for updates…`);
    try {
      await updater.checkForUpdates();
    } catch (err) {
      // The updater's 'error' event has usually said it already; the check's own error is the fallback.
      if (this.current.state === 'checking') this.set('error', `The update check failed: ${firstLine(err)}`);
    }
    if (this.current.state === 'checking')
      this.set('up-to-date', `Gatehouse ${this.o.currentVersion} is the latest version.`);
    return this.current;
  }

  private async loaded(): Promise<UpdaterLike> {
    if (this.updater) return this.updater;
    const { updater, packageManager } = await this.o.loadUpdater();
    this.packageManager = packageManager;
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = packageManager === null;
    updater.allowDowngrade = false;
    updater.logger = {
      info: (m) => this.o.log(`updater: ${String(m)}`),
      warn: (m) => this.o.log(`updater warning: ${String(m)}`),
      error: (m) => this.o.log(`updater error: ${firstLine(m)}`),
    };
    updater.on('update-not-available', () =>
      this.set('up-to-date', `Gatehouse ${this.o.currentVersion} is the latest version.`, { checked: true }),
    );
    updater.on('update-available', (info) =>
      this.set('downloading', `Downloading Gatehouse ${info.version}…`, {
        version: info.version,
        percent: 0,
        checked: true,
      }),
    );
    updater.on('download-progress', (p) => {
      if (this.current.state === 'downloading')
        this.set('downloading', this.current.message, {
          version: this.current.version,
          percent: Math.max(0, Math.min(100, Math.round(p.percent))),
        });
    });
    updater.on('update-downloaded', (info) =>
      this.set('ready', this.readyMessage(info.version, info.downloadedFile), { version: info.version }),
    );
    updater.on('error', (err) => this.set('error', `Updating failed: ${firstLine(err)}`));
    this.updater = updater;
    return updater;
  }

  private readyMessage(version: string, file: string | undefined): string {
    if (this.packageManager === null)
      return `Gatehouse ${version} is downloaded and verified: it installs when you quit, or restart now.`;
    const where = file ? ` (${file})` : '';
    return `Gatehouse ${version} is downloaded and verified${where}. Installing a ${this.packageManager} package needs your password, so it is not installed when you quit: restart now to install it, or install the package with your package manager.`;
  }

  private make(
    state: UpdateState,
    message: string,
    extra: { version?: string | null; percent?: number | null; checkedAt?: string | null } = {},
  ): UpdateStatus {
    return {
      currentVersion: this.o.currentVersion,
      state,
      message,
      version: extra.version ?? null,
      percent: extra.percent ?? null,
      checkedAt: extra.checkedAt ?? this.current?.checkedAt ?? null,
    };
  }

  private set(
    state: UpdateState,
    message: string,
    extra: { version?: string | null; percent?: number | null; checked?: boolean } = {},
  ): UpdateStatus {
    const checkedAt =
      extra.checked || state === 'up-to-date' ? (this.o.now ?? (() => new Date()))().toISOString() : undefined;
    this.current = this.make(state, message, {
      version: extra.version,
      percent: extra.percent,
      ...(checkedAt ? { checkedAt } : {}),
    });
    for (const listener of [...this.listeners]) listener(this.current);
    return this.current;
  }
}
