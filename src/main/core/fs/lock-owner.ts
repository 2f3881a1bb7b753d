import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The file system proper-lockfile locks through (its `fs` option), with an owner record in each lock it takes: a lock
 * left behind by a process that died (killed, crashed) is taken over at once, not after the 10 s in which its mtime
 * goes stale. A lock is the folder `<file>.lock`; right after creating it, its taker writes `<file>.lock/owner.json`
 * (its pid, host name and, on Linux, PID namespace). A process that finds the lock taken reads that record: when the
 * owner ran on this machine, in this PID namespace, and no longer exists, the lock counts as stale. Anything else (no
 * record yet, one that does not parse, another machine sharing the folder, a live owner or a pid now reused) leaves
 * proper-lockfile's own rule, the mtime, to decide. A stale lock is removed only while its owner record is still the one
 * judged: another process may have taken the lock over meanwhile.
 */

const OWNER_FILE = 'owner.json';

interface Owner {
  pid: number;
  host: string;
  /** `/proc/self/ns/pid`'s target (Linux), or null where there is none. */
  ns: string | null;
}

type Callback<T = void> = (err: NodeJS.ErrnoException | null, value?: T) => void;

let ownNs: Promise<string | null> | null = null;

/** This process's PID namespace (Linux), read once. */
function pidNamespace(): Promise<string | null> {
  ownNs ??= fs.promises.readlink('/proc/self/ns/pid').catch(() => null);
  return ownNs;
}
// Read as this module loads: a lock's record is then written right after its folder is made, with nothing to wait for
// in between (a process killed in between leaves a lock without a record, which goes stale by its mtime).
void pidNamespace();

/** The owner record's text as read (null when there is none), and the owner it names (null when it names none). */
async function readOwner(lockDir: string): Promise<{ text: string | null; owner: Owner | null }> {
  let text: string;
  try {
    text = await fs.promises.readFile(path.join(lockDir, OWNER_FILE), 'utf8');
  } catch {
    return { text: null, owner: null };
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return { text, owner: null };
    const { pid, host, ns } = value as Record<string, unknown>;
    if (!Number.isSafeInteger(pid) || (pid as number) <= 0 || typeof host !== 'string') return { text, owner: null };
    if (ns !== null && typeof ns !== 'string') return { text, owner: null };
    return { text, owner: { pid: pid as number, host, ns } };
  } catch {
    return { text, owner: null };
  }
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: it exists, as another user's process
  }
}

/** Whether `owner` names another process of this machine and PID namespace, one that no longer exists. */
async function ownerDied(owner: Owner | null): Promise<boolean> {
  if (!owner || owner.host !== os.hostname() || owner.ns !== (await pidNamespace())) return false;
  return owner.pid !== process.pid && !exists(owner.pid);
}

/** Per lock folder, the owner record (text) this process wrote when it took the lock, or last saw in its stat. */
const seen = new Map<string, string | null>();

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** The `fs` option for proper-lockfile's `lock` (see the top of this file). */
export const ownedLockFs = {
  ...fs,
  /** Creates the lock folder, then writes the owner record into it (a failed write leaves a lock without one). */
  mkdir(dir: string, callback: Callback): void {
    fs.mkdir(dir, (err) => {
      if (err) return callback(err);
      void pidNamespace()
        .then(async (ns) => {
          const text = JSON.stringify({ pid: process.pid, host: os.hostname(), ns } satisfies Owner);
          await fs.promises.writeFile(path.join(dir, OWNER_FILE), text, { flag: 'wx' });
          return text;
        })
        .catch(() => null)
        // What this process wrote is what it expects to find when it releases the lock (see rmdir).
        .then((text) => {
          seen.set(dir, text);
          callback(null);
        });
    });
  },
  /** The lock folder's stat, its mtime set far in the past when its owner is known to have died (so it is stale). */
  stat(file: string, callback: Callback<fs.Stats>): void {
    fs.stat(file, (err, stats) => {
      if (err) return callback(err);
      if (!stats.isDirectory()) return callback(null, stats);
      void readOwner(file).then(async ({ text, owner }) => {
        seen.set(file, text);
        if (!(await ownerDied(owner))) return callback(null, stats);
        const stale = Object.assign(Object.create(Object.getPrototypeOf(stats) as object) as fs.Stats, stats);
        Object.defineProperty(stale, 'mtime', { value: new Date(0), enumerable: true, writable: true });
        Object.defineProperty(stale, 'mtimeMs', { value: 0, enumerable: true, writable: true });
        callback(null, stale);
      });
    });
  },
  /**
   * Removes a lock folder with its owner record while that record is the one this process wrote (its own lock,
   * released) or judged (a stale one). A changed record means another process took the lock meanwhile: it is left as
   * it is (reported as already gone, so the taker tries again).
   */
  rmdir(dir: string, callback: Callback): void {
    void readOwner(dir).then(({ text }) => {
      const expected = seen.get(dir);
      seen.delete(dir);
      if (expected !== text) return callback(errno('ENOENT', `${dir} was taken by another process meanwhile`));
      fs.unlink(path.join(dir, OWNER_FILE), () => fs.rmdir(dir, callback));
    });
  },
};
