import { settleWithin } from '../../../shared/settle-within';
import type { AskUser } from './crash-recovery';

// Quitting, closing the last window and "Restart to update" all end a running turn: one guard asks the person first.
// Only Electron's event shape is used here (the dialog comes in as `ask`), so it is unit-tested with fakes.

/** What would end the run: a quit (menu, Cmd+Q, the OS logging out), the last window closing, or an update's restart. */
export type QuitCause = 'quit' | 'close' | 'update';

export interface QuitGuardOptions {
  /** Whether a turn is running (from its message until its end is recorded). */
  running: () => boolean;
  /** Cancels the running turn; resolves once its end is in the transcript (cancelled, finished tool calls kept). */
  stopRun: () => Promise<void>;
  ask: AskUser;
  log: (line: string) => void;
  /** How long a stopped turn may take to record its end before the app goes on quitting anyway (a hung worker). */
  stopTimeoutMs?: number;
}

const STOP_TIMEOUT_MS = 10_000;

/**
 * Asks "A run is in progress" before anything ends a running turn: "Wait" cancels the quit (the turn goes on; the
 * person quits again when they like: the app never quits later on its own), "Stop it and quit" cancels the turn, waits
 * until the transcript records it, and lets the quit go on. Once the person chose to stop, later quit events (the
 * windows closing as the app quits, the updater's own quit) pass without asking again.
 */
export class QuitGuard {
  private stopChosen = false;
  private asking: Promise<boolean> | null = null;

  constructor(private readonly o: QuitGuardOptions) {}

  /** True when quitting may go on at once: no turn runs, or the person already chose to stop it. */
  clear(): boolean {
    return this.stopChosen || !this.o.running();
  }

  /** Resolves true when the app may quit (nothing ran, or the person stopped the turn), false when they chose to wait. */
  confirm(cause: QuitCause): Promise<boolean> {
    if (this.clear()) return Promise.resolve(true);
    // A second quit while the dialog is up (Cmd+Q twice) waits for the same answer rather than stacking dialogs.
    this.asking ??= this.ask(cause).finally(() => (this.asking = null));
    return this.asking;
  }

  /**
   * Guards one Electron event that would end the turn (`before-quit`, the last window's `close`): when a turn runs,
   * the event is prevented and the person asked; if they stop the turn, `proceed` quits the app.
   */
  intercept(event: { preventDefault(): void }, cause: QuitCause, proceed: () => void): void {
    if (this.clear()) return;
    event.preventDefault();
    void this.confirm(cause).then((go) => {
      if (go) proceed();
    });
  }

  private async ask(cause: QuitCause): Promise<boolean> {
    const update = cause === 'update';
    let choice: number;
    try {
      choice = await this.o.ask({
        type: 'warning',
        title: 'Gatehouse',
        message: 'A run is in progress',
        detail:
          `${update ? 'Restarting to update' : 'Quitting'} now stops it: the transcript keeps every tool call that ` +
          `finished and records the turn as cancelled. Wait lets it finish; ${update ? 'restart' : 'quit'} again ` +
          'when it is done.',
        buttons: ['Wait', update ? 'Stop it and restart' : 'Stop it and quit'],
        cancel: 0,
      });
    } catch (err) {
      this.o.log(`quit: could not ask about the running turn: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
    if (choice !== 1) return false;
    this.stopChosen = true;
    const timeoutMs = this.o.stopTimeoutMs ?? STOP_TIMEOUT_MS;
    let recorded = false;
    await settleWithin(async () => {
      await this.o.stopRun();
      recorded = true;
    }, timeoutMs);
    if (!recorded) this.o.log(`quit: the stopped turn did not record its end within ${timeoutMs / 1000} s`);
    return true;
  }
}
