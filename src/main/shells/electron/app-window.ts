import type { BrowserWindow } from 'electron';
import { IPC_EVENT_CHANNEL } from '../../../shared/api';
import type { ApiEvent } from '../../../shared/api';
import { recoverRendererCrashes } from './crash-recovery';
import type { AskUser } from './crash-recovery';
import { createMainWindow } from './window';
import type { SavedWindow } from './window-bounds';
import { linkWindowEvents } from './window-events';
import { rememberWindow } from './window-state';
import type { EventSource } from './window-events';

type View = Extract<ApiEvent, { type: 'showView' }>['view'];

export interface AppWindowOptions {
  core: EventSource & { showView(view: View): void };
  preload: string;
  /** The page the window shows (app://gatehouse/index.html, or the dev server's page in development). */
  pageUrl: string;
  isAppPage: (url: string) => boolean;
  /** False in packaged builds: no DevTools at all. */
  devTools: boolean;
  ask: AskUser;
  quit: () => void;
  log: (line: string) => void;
  /** Where a new window opens, and whether maximised (the saved state, if it fits the displays connected now). */
  placement?: () => SavedWindow | null;
  /** Saves where the window is, as the person moves, resizes, maximises or closes it. */
  remember?: (saved: SavedWindow) => void;
  /** Runs first when the window is about to close: may prevent it (a turn runs and the person chooses to wait). */
  beforeClose?: (event: { preventDefault(): void }) => void;
}

/**
 * The app's one window: created on demand (at start, from the dock, from the menu when it was closed on macOS),
 * linked to the core's events, recovered after a renderer crash, and shown even when its page never paints.
 */
export class AppWindow {
  private window: BrowserWindow | null = null;

  constructor(private readonly o: AppWindowOptions) {}

  /** The live window, or null. */
  current(): BrowserWindow | null {
    return this.window && !this.window.isDestroyed() ? this.window : null;
  }

  /** Brings the window forward, creating it when there is none. Returns true when it was created. */
  show(): boolean {
    const live = this.current();
    if (live) {
      if (live.isMinimized()) live.restore();
      if (!live.isVisible()) live.show();
      live.focus();
      return false;
    }
    const placed = this.o.placement?.() ?? null;
    const created = createMainWindow({
      preload: this.o.preload,
      title: 'Gatehouse',
      devTools: this.o.devTools,
      bounds: placed?.bounds ?? null,
    });
    this.window = created;
    const { beforeClose, remember } = this.o;
    if (beforeClose) created.on('close', beforeClose);
    if (remember) rememberWindow(created, remember);
    // Maximised as it is shown (before, it would be shown before its page has painted).
    if (placed?.maximized) created.once('ready-to-show', () => created.maximize());
    // Events reach the page while it lives; closing it or losing its renderer denies waiting approvals.
    linkWindowEvents(this.o.core, created, this.o.isAppPage);
    recoverRendererCrashes(created, {
      reload: () => this.load(created),
      ask: this.o.ask,
      quit: this.o.quit,
      log: this.o.log,
    });
    created.on('closed', () => {
      if (this.window === created) this.window = null;
    });
    this.load(created);
    return true;
  }

  /**
   * Shows the window with one of its views. A window created for this gets the view once its page has loaded
   * (sent earlier it would be lost); the preload keeps it until the page listens.
   */
  showView(view: View): void {
    if (!this.show()) {
      this.o.core.showView(view);
      return;
    }
    const contents = this.window!.webContents;
    contents.once('did-finish-load', () => {
      if (!contents.isDestroyed() && this.o.isAppPage(contents.getURL()))
        contents.send(IPC_EVENT_CHANNEL, { type: 'showView', view });
    });
  }

  private load(window: BrowserWindow): void {
    if (window.isDestroyed()) return;
    // A failed load (did-fail-load shows the window) must not become an unhandled rejection.
    window
      .loadURL(this.o.pageUrl)
      .catch((err: unknown) =>
        this.o.log(`could not load the page: ${err instanceof Error ? err.message : String(err)}`),
      );
  }
}
