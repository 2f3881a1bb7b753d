import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GatehouseError } from '../../shared/errors';

export interface FileLockOptions {
  /** How long to wait for another process's lock before giving up (ms). */
  timeoutMs?: number;
  /** A lock older than this whose owner cannot be confirmed alive is treated as left behind by a crash (ms). */
  staleMs?: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface LockContent {
  pid: number;
  token: string;
  at: number;
}

function readLock(file: string): { raw: string; content: LockContent | null } | null {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockContent>;
    if (typeof parsed.pid === 'number' && typeof parsed.token === 'string' && typeof parsed.at === 'number') {
      return { raw, content: { pid: parsed.pid, token: parsed.token, at: parsed.at } };
    }
  } catch {
    // a half-written lock file: judged by its age below
  }
  return { raw, content: null };
}

function isStale(file: string, lock: { content: LockContent | null }, staleMs: number): boolean {
  if (lock.content) {
    if (lock.content.pid === process.pid) return Date.now() - lock.content.at > staleMs;
    if (!processAlive(lock.content.pid)) return true;
    return Date.now() - lock.content.at > staleMs * 6;
  }
  try {
    return Date.now() - fs.statSync(file).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

/**
 * Removes a stale lock without removing a fresh one another process just created: the lock is first renamed to a
 * private name, and put back if what was renamed is not the lock that was judged stale.
 */
function reapStale(file: string, judgedRaw: string): void {
  const reaped = `${file}.reap-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, reaped);
  } catch {
    return;
  }
  let raw = '';
  try {
    raw = fs.readFileSync(reaped, 'utf8');
  } catch {
    // gone: nothing to put back
  }
  if (raw !== judgedRaw) {
    try {
      fs.linkSync(reaped, file);
    } catch {
      // someone holds a newer lock already
    }
  }
  fs.rmSync(reaped, { force: true });
}

/**
 * Runs `fn` while holding `lockFile`, created with O_EXCL and holding this process's pid, so that two processes
 * (the desktop app and the CLI) never read-modify-write a state file at the same time. A lock whose owner died is
 * taken over; a live owner is waited for up to `timeoutMs`.
 */
export function withFileLock<T>(lockFile: string, fn: () => T, options: FileLockOptions = {}): T {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 5_000;
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const token = randomBytes(8).toString('hex');
  const mine = JSON.stringify({ pid: process.pid, token, at: Date.now() });
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
      try {
        fs.writeSync(fd, mine);
      } finally {
        fs.closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const held = readLock(lockFile);
    if (held && isStale(lockFile, held, staleMs)) {
      reapStale(lockFile, held.raw);
      continue;
    }
    if (Date.now() > deadline) {
      throw new GatehouseError('TIMEOUT', `could not lock ${lockFile}: held by process ${held?.content?.pid ?? 'unknown'}`);
    }
    sleepSync(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 50);
  }
  try {
    return fn();
  } finally {
    const held = readLock(lockFile);
    if (held?.raw === mine) fs.rmSync(lockFile, { force: true });
  }
}
