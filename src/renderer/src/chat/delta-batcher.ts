/**
 * Coalesces high-rate events (streamed text, command output) so the UI renders them at most once per interval
 * (`minIntervalMs` between two renders). Deltas wait in a queue; any other event first
 * flushes the queue, then applies itself, so the order of events is exactly the order they arrived in, and nothing
 * waits behind a render that is not due yet.
 */

/** Runs `callback` once, at least `delayMs` from now; the returned function cancels it. */
type DeltaScheduler = (callback: () => void, delayMs: number) => () => void;

export interface DeltaBatcherOptions<E> {
  isDelta(event: E): boolean;
  /** All deltas queued since the last flush, oldest first (never empty). */
  applyDeltas(deltas: E[]): void;
  /** One event that is not a delta. */
  applyEvent(event: E): void;
  /** The least time between two flushes of deltas (0: in the next task). */
  minIntervalMs?: number;
  schedule?: DeltaScheduler;
  /** A monotonic clock in ms (performance.now by default). */
  now?: () => number;
}

export interface DeltaBatcher<E> {
  push(event: E): void;
  /** Applies the queued deltas now (before anything else changes the state they append to). */
  flush(): void;
  /** Deltas waiting for their render. */
  pending(): number;
}

/**
 * A task `delayMs` from now. Not an animation frame callback: the render then runs in its own task, and the page's
 * style, layout and paint in the next frame's task, so neither makes the other's task longer (a frame callback would
 * hold both). Timers also run in hidden pages, where frames stop.
 */
const afterDelay: DeltaScheduler = (callback, delayMs) => {
  const timer = setTimeout(callback, delayMs);
  return () => clearTimeout(timer);
};

export function createDeltaBatcher<E>(options: DeltaBatcherOptions<E>): DeltaBatcher<E> {
  const schedule = options.schedule ?? afterDelay;
  const now = options.now ?? (() => performance.now());
  const minInterval = options.minIntervalMs ?? 0;
  let queue: E[] = [];
  let cancel: (() => void) | null = null;
  let lastFlush = -Infinity;

  const flush = (): void => {
    if (cancel) {
      cancel();
      cancel = null;
    }
    if (queue.length === 0) return;
    const deltas = queue;
    queue = [];
    lastFlush = now();
    options.applyDeltas(deltas);
  };

  return {
    push(event) {
      if (options.isDelta(event)) {
        queue.push(event);
        cancel ??= schedule(
          () => {
            cancel = null;
            flush();
          },
          // Never more than the interval (a clock that went back must not stall the stream).
          Math.min(minInterval, Math.max(0, lastFlush + minInterval - now())),
        );
        return;
      }
      flush();
      options.applyEvent(event);
    },
    flush,
    pending: () => queue.length,
  };
}
