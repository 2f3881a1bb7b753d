import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownedLockFs } from '../../../src/main/core/fs/lock-owner';
import { withStateLock } from '../../../src/main/core/fs/state-lock';

// The state lock's owner record (src/main/core/fs/lock-owner.ts): what a process that held a lock and was killed leaves
// behind is `<file>.lock/owner.json` naming a pid that no longer exists; such a lock is taken over at once, where the
// mtime rule alone waits 10 s. The waits below (300 ms to 2 s) are far below those 10 s, and the locks' mtimes fresh:
// only the owner record can explain a lock taken within them.

const roots: string[] = [];
function newFile(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-lock-owner-')));
  roots.push(root);
  return path.join(root, 'state.json');
}
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped): what a killed lock holder's record names. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('true', { stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', () => (child.pid === undefined ? reject(new Error('no pid')) : resolve(child.pid)));
  });
}

const ownNs = (): string | null => {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
};

/** A lock folder as a holder leaves it, with `owner` as its record (a string is written as it is). */
function leaveLock(file: string, owner: Record<string, unknown> | string): void {
  fs.mkdirSync(`${file}.lock`);
  const text = typeof owner === 'string' ? owner : JSON.stringify(owner);
  fs.writeFileSync(path.join(`${file}.lock`, 'owner.json'), text);
}

const tryLock = (file: string, timeoutMs: number): Promise<string> =>
  withStateLock(file, async () => 'ran', { timeoutMs });

describe('the state lock with its owner record', () => {
  it('names its holder while held, and leaves nothing behind once released', async () => {
    const file = newFile();
    const record = await withStateLock(file, async () =>
      JSON.parse(fs.readFileSync(path.join(`${file}.lock`, 'owner.json'), 'utf8')),
    );
    expect(record).toEqual({ pid: process.pid, host: os.hostname(), ns: ownNs() });
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('is taken over at once when the process that holds it no longer exists', async () => {
    const file = newFile();
    leaveLock(file, { pid: await deadPid(), host: os.hostname(), ns: ownNs() });
    expect(await tryLock(file, 2000)).toBe('ran');
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('is waited for while the process that holds it lives', async () => {
    const file = newFile();
    leaveLock(file, { pid: process.ppid, host: os.hostname(), ns: ownNs() });
    await expect(tryLock(file, 300)).rejects.toThrow(/could not lock .*state\.json: another Gatehouse process/);
    expect(fs.existsSync(path.join(`${file}.lock`, 'owner.json'))).toBe(true);
  });

  it.each([
    ['names another machine', async () => ({ pid: await deadPid(), host: `not-${os.hostname()}`, ns: ownNs() })],
    ['names another PID namespace', async () => ({ pid: await deadPid(), host: os.hostname(), ns: 'pid:[1]' })],
    ['is not JSON', async () => '{"pid": '],
    ['names no pid', async () => ({ pid: 'x', host: os.hostname(), ns: ownNs() })],
  ])('whose record %s is left to the mtime: waited for while fresh', async (_, owner) => {
    const file = newFile();
    leaveLock(file, await owner());
    await expect(tryLock(file, 300)).rejects.toThrow(/another Gatehouse process/);
    expect(fs.existsSync(`${file}.lock`)).toBe(true);
  });

  it('whose mtime is stale is taken over whatever its record says (a holder that stopped refreshing it)', async () => {
    const file = newFile();
    leaveLock(file, { pid: process.ppid, host: os.hostname(), ns: ownNs() });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, old, old);
    expect(await tryLock(file, 2000)).toBe('ran');
  });

  it('found stale is not removed when another process took it over meanwhile', async () => {
    const file = newFile();
    const dir = `${file}.lock`;
    leaveLock(file, { pid: await deadPid(), host: os.hostname(), ns: ownNs() });
    const stats = await new Promise<fs.Stats>((resolve, reject) =>
      ownedLockFs.stat(dir, (err, st) => (err || !st ? reject(err ?? new Error('no stats')) : resolve(st))),
    );
    expect(stats.mtime.getTime()).toBe(0); // judged stale: its owner died
    // Another process removes it and takes the lock before this one removes it.
    fs.rmSync(dir, { recursive: true });
    leaveLock(file, { pid: process.ppid, host: os.hostname(), ns: ownNs() });
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => ownedLockFs.rmdir(dir, resolve));
    expect(err?.code).toBe('ENOENT'); // proper-lockfile then tries to take it again, and finds it held
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'owner.json'), 'utf8'))).toMatchObject({ pid: process.ppid });
  });
});
