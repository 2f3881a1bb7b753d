import type { BrowserWindow } from 'electron';
import type { WorkerStatus } from '../../../shared/api';

// Recovery from a dead renderer or a worker that keeps crashing, visible to the person. Only Electron's types are
// imported: the window, the dialog and the clock are passed in, so it is unit-tested with fakes.

/** Shows a message box; resolves with the index of the button chosen (`cancel` for Esc or closing it). */
export type AskUser = (box: {
  /** The box's icon (default: error). */
  type?: 'error' | 'warning' | 'question';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  cancel: number;
}) => Promise<number>;

export interface RendererRecoveryOptions {
  /** Loads the app's page again (a reload after a crash). */
  reload: () => void;
  ask: AskUser;
  quit: () => void;
  log: (line: string) => void;
  /** Reloads allowed within `windowMs` before asking the person instead. */
  maxReloads?: number;
  windowMs?: number;
  /** A window whose page has not painted after this long is shown anyway (its renderer may hang or be dead). */
  showAfterMs?: number;
  now?: () => number;
}

/**
 * Keeps the app's window usable when its renderer dies (crash, kill, OOM): the window is shown (even if the page
 * never painted) and the page is loaded again, up to `maxReloads` times within `windowMs`; after that a dialog
 * says what happened and offers Reload or Quit, so a page that crashes at once does not loop. A page that fails to
 * load shows the window too. Returns a function that stops watching.
 */
export function recoverRendererCrashes(window: BrowserWindow, o: RendererRecoveryOptions): () => void {
  const maxReloads = o.maxReloads ?? 3;
  const windowMs = o.windowMs ?? 60_000;
  const now = o.now ?? Date.now;
  let crashes: number[] = [];
  let asking = false;
  let stopped = false;
  const reveal = (): void => {
    if (!stopped && !window.isDestroyed() && !window.isVisible()) window.show();
  };
  const showTimer = setTimeout(reveal, o.showAfterMs ?? 10_000);
  showTimer.unref();
  const stop = (): void => {
    stopped = true;
    clearTimeout(showTimer);
  };

  window.once('ready-to-show', () => {
    clearTimeout(showTimer);
    reveal();
  });
  window.on('closed', stop);
  window.webContents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
    if (!isMainFrame || code === -3) return; // -3: ERR_ABORTED (a navigation replaced this one)
    o.log(`the page did not load: ${description} (${code}) ${url.slice(0, 200)}`);
    reveal();
  });
  window.webContents.on('render-process-gone', (_event, details) => {
    if (stopped || window.isDestroyed() || details.reason === 'clean-exit') return;
    o.log(`renderer gone: ${details.reason} (exit code ${details.exitCode})`);
    reveal();
    const t = now();
    crashes = [...crashes.filter((c) => t - c < windowMs), t];
    if (crashes.length <= maxReloads) {
      o.reload();
      return;
    }
    if (asking) return;
    asking = true;
    void o
      .ask({
        title: 'Gatehouse',
        message: "Gatehouse's window keeps stopping",
        detail:
          `Its page stopped ${crashes.length} times within ${Math.round(windowMs / 1000)} s (last: ${details.reason}, exit code ${details.exitCode}). ` +
          'Approvals that were waiting were denied. Reload the page, or quit Gatehouse.',
        buttons: ['Reload', 'Quit'],
        cancel: 0,
      })
      .then(
        (choice) => {
          asking = false;
          if (stopped || window.isDestroyed()) return;
          if (choice === 0) {
            crashes = [];
            o.reload();
          } else {
            o.quit();
          }
        },
        () => {
          asking = false;
        },
      );
  });
  return stop;
}

export interface WorkerRecoveryOptions {
  ask: AskUser;
  /** Starts the worker again (WorkerSupervisor.start). */
  restart: () => Promise<void>;
  quit: () => void;
  log: (line: string) => void;
}

/**
 * The supervisor restarts a crashed worker by itself and gives up ("failed") after repeated crashes; then the
 * person is asked, once per failure, whether to start it again, leave it stopped for now (the page says so; rules and
 * settings still work) or quit. Returns the status listener.
 */
export function workerFailureHandler(o: WorkerRecoveryOptions): (status: WorkerStatus) => void {
  let asking = false;
  return (status) => {
    if (status.state !== 'failed' || asking) return;
    asking = true;
    o.log(`worker failed: ${status.message ?? 'no reason given'}`);
    void o
      .ask({
        title: 'Gatehouse',
        message: "Gatehouse's agent process keeps stopping",
        detail: `${status.message ?? 'It stopped repeatedly.'} Commands and edits cannot run until it is started again.`,
        buttons: ['Start it again', 'Not now', 'Quit'],
        cancel: 1,
      })
      .then(async (choice) => {
        asking = false;
        if (choice === 0) await o.restart();
        else if (choice === 2) o.quit();
      })
      .catch((err: unknown) => {
        asking = false;
        o.log(`worker restart failed: ${err instanceof Error ? err.message : String(err)}`);
      });
  };
}
