/**
 * Coalesces high-rate events (streamed text, command output) so the UI renders at most once per animation frame.
 * Deltas wait in a queue until the next frame; any other event first flushes the queue, then applies itself, so
 * the order of events is exactly the order they arrived in.
 */

/** Runs `callback` once, soon (the next frame); the returned function cancels it. */
export type FrameScheduler = (callback: () => void) => () => void;

export interface DeltaBatcherOptions<E> {
  isDelta(event: E): boolean;
  /** All deltas queued since the last flush, oldest first (never empty). */
  applyDeltas(deltas: E[]): void;
  /** One event that is not a delta. */
  applyEvent(event: E): void;
  schedule?: FrameScheduler;
}

export interface DeltaBatcher<E> {
  push(event: E): void;
  /** Applies the queued deltas now (before anything else changes the state they append to). */
  flush(): void;
  /** Deltas waiting for the next frame. */
  pending(): number;
}

/** A backstop for hidden pages, where animation frames stop: the queue still drains, just less often. */
const HIDDEN_PAGE_FLUSH_MS = 250;

/** The next animation frame (or the backstop timer, whichever comes first); a plain timer where there are no frames. */
export const nextFrame: FrameScheduler = (callback) => {
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    cancel();
    callback();
  };
  const timer = setTimeout(run, typeof requestAnimationFrame === 'function' ? HIDDEN_PAGE_FLUSH_MS : 16);
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : null;
  const cancel = (): void => {
    done = true;
    clearTimeout(timer);
    if (frame !== null) cancelAnimationFrame(frame);
  };
  return cancel;
};

export function createDeltaBatcher<E>(options: DeltaBatcherOptions<E>): DeltaBatcher<E> {
  const schedule = options.schedule ?? nextFrame;
  let queue: E[] = [];
  let cancel: (() => void) | null = null;

  const flush = (): void => {
    if (cancel) {
      cancel();
      cancel = null;
    }
    if (queue.length === 0) return;
    const deltas = queue;
    queue = [];
    options.applyDeltas(deltas);
  };

  return {
    push(event) {
      if (options.isDelta(event)) {
        queue.push(event);
        cancel ??= schedule(() => {
          cancel = null;
          flush();
        });
        return;
      }
      flush();
      options.applyEvent(event);
    },
    flush,
    pending: () => queue.length,
  };
}
