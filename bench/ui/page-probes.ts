// Functions that run inside the page (Playwright serialises them): self-contained, DOM only, no imports.

export interface StreamProbe {
  /** Each long task: when it started (ms after the probe was installed) and how long it ran. */
  longTasks: Array<{ at: number; ms: number }>;
  frames: number[];
}

declare global {
  interface Window {
    __ghBench?: { longTasks: Array<{ at: number; ms: number }>; frames: number[]; stop: boolean };
  }
}

/** Starts recording long tasks (PerformanceObserver 'longtask') and the interval between animation frames. */
export function installStreamProbe(): void {
  if (!PerformanceObserver.supportedEntryTypes.includes('longtask'))
    throw new Error('this browser does not report long tasks');
  const probe = { longTasks: [] as Array<{ at: number; ms: number }>, frames: [] as number[], stop: false };
  window.__ghBench = probe;
  const installed = performance.now();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      probe.longTasks.push({ at: Math.round(entry.startTime - installed), ms: entry.duration });
  }).observe({ type: 'longtask', buffered: false });
  let last = installed;
  const frame = (now: number): void => {
    probe.frames.push(now - last);
    last = now;
    if (!probe.stop) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** Characters of text in the newest assistant message (the streamed answer, as rendered). */
export function renderedAnswerLength(): number {
  const answers = document.querySelectorAll('[data-testid="assistant-message"]');
  return answers[answers.length - 1]?.textContent?.length ?? 0;
}

export function collectStreamProbe(): StreamProbe {
  const probe = window.__ghBench;
  if (!probe) throw new Error('the stream probe was not installed');
  probe.stop = true;
  return { longTasks: probe.longTasks, frames: probe.frames.slice(1) };
}

/**
 * Clicks the first "Resume session" button and resolves with the milliseconds until a row holding `marker` is in the
 * conversation's viewport and the frame that shows it has been painted.
 */
export function resumeAndTime(args: { marker: string; timeoutMs: number }): Promise<number> {
  // Named by its text: a visually hidden "Resume session: " before the session's title.
  const button = Array.from(document.querySelectorAll('button')).find((b) =>
    (b.textContent ?? '').startsWith('Resume session'),
  );
  const log = document.querySelector('[role="log"]');
  if (!button || !log) return Promise.reject(new Error('no Resume button or conversation log on the page'));
  const started = performance.now();
  button.click();
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (performance.now() - started > args.timeoutMs)
        return reject(new Error(`"${args.marker}" did not show within ${args.timeoutMs} ms`));
      const box = log.getBoundingClientRect();
      const shown = Array.from(log.querySelectorAll('.message-row')).some((row) => {
        const r = row.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom && (row.textContent ?? '').includes(args.marker);
      });
      // Seen in this frame's layout: the next task runs after the frame is painted.
      if (shown) setTimeout(() => resolve(performance.now() - started), 0);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}
