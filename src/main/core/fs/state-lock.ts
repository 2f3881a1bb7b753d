import fs from 'node:fs';
import path from 'node:path';
import { ownedLockFs } from './lock-owner';
import { properLockfile } from './proper-lockfile';
import { GatehouseError } from '../../../shared/errors';

export interface StateLockOptions {
  /** How long to wait for another holder before giving up (ms); default 20 s. */
  timeoutMs?: number;
}

/** Calls queued in this process per lock path: they take turns without polling the file system. */
const queues = new Map<string, Promise<unknown>>();

const STALE_MS = 10_000;

/**
 * Runs `fn` while holding the cross-process lock of the state file `file` (proper-lockfile: an atomic `mkdir` of
 * `<file>.lock`, its mtime refreshed while held, taken over when stale after a crash, at once when the process that
 * held it is known to have died: see lock-owner.ts). Every read-modify-write of a state file (settings and local
 * approvals, last-good cache, trust store, recent projects) goes through here, so the app and any number of CLI
 * processes writing at once lose nothing. Waiting is asynchronous: nothing blocks the thread. Inside one process the
 * calls for one file are queued.
 */
export function withStateLock<T>(file: string, fn: () => Promise<T>, options: StateLockOptions = {}): Promise<T> {
  const key = path.resolve(file);
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(
    () => lockAndRun(key, fn, options),
    () => lockAndRun(key, fn, options),
  );
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

async function lockAndRun<T>(file: string, fn: () => Promise<T>, options: StateLockOptions): Promise<T> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const timeoutMs = options.timeoutMs ?? 20_000;
  let compromised: Error | null = null;
  let release: () => Promise<void>;
  try {
    release = await properLockfile().lock(file, {
      realpath: false,
      stale: STALE_MS,
      // An owner record in each lock: one left by a process that died is taken over at once (see lock-owner.ts).
      fs: ownedLockFs,
      // ~timeoutMs of retries, 5..200 ms apart with jitter.
      retries: {
        retries: Math.max(1, Math.ceil(timeoutMs / 150)),
        factor: 1.3,
        minTimeout: 5,
        maxTimeout: 200,
        randomize: true,
      },
      onCompromised: (err) => {
        compromised = err;
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new GatehouseError(
        'TIMEOUT',
        `could not lock ${file}: another Gatehouse process has held ${file}.lock for more than ${Math.round(timeoutMs / 1000)} s; nothing was changed`,
      );
    }
    throw err;
  }
  try {
    const result = await fn();
    if (compromised)
      throw new GatehouseError(
        'INTERNAL',
        `the lock on ${file} was lost while writing (${(compromised as Error).message}); check the file`,
      );
    return result;
  } finally {
    await release().catch(() => undefined);
  }
}
