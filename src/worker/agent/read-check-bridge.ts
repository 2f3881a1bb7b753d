import type { ReadableRequest, ReadableResult } from '../../shared/worker-protocol';
import type { ReadableCheck } from '../tools/read-filter';

/** How long a search waits for main's answer before it fails with an error (never with unfiltered results). */
const DEFAULT_READ_CHECK_TIMEOUT_MS = 20_000;

/**
 * Adapts main's `permission.readable` (over the port) to the search tools' ReadableCheck for one run. No answer
 * within `timeoutMs`, or a cancel, rejects: the tool then returns an error.
 */
export function readCheckBridge(
  ask: (request: ReadableRequest) => Promise<ReadableResult>,
  runId: string,
  timeoutMs = DEFAULT_READ_CHECK_TIMEOUT_MS,
): ReadableCheck {
  return (paths, signal) =>
    new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        done();
        reject(new Error('cancelled'));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      ask({ runId, paths }).then(
        (result) => {
          done();
          resolve(result.hidden);
        },
        (err: unknown) => {
          done();
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
}
