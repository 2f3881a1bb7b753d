/**
 * Mount points for guarded paths that do not exist yet. bubblewrap can only mount on a name that exists, and the
 * name must stay taken while the command runs: if `.claude` is free inside the sandbox, a command can create
 * `.claude/settings.local.json`. So for each command a folder is made at the first missing name (on the host,
 * since the writable root is the host's folder), an empty read-only tmpfs is mounted over it inside the sandbox,
 * and the folder is removed again when the command ends: no stray folders are left in the person's project.
 *
 * Several commands (of this worker or of another Gatehouse process) may share one placeholder, and removing it
 * while another sandbox still mounts it would silently lift that sandbox's guard (the kernel detaches a mount
 * whose mount point is removed from another namespace). So each user leaves a marker file inside the placeholder
 * (hidden from the command by the tmpfs) for as long as its command runs, and the placeholder is removed with
 * `rmdir`, which fails while any marker (or anything else) is in it. Markers of processes that are gone are
 * cleared on the next use. A folder that holds anything but markers is a real folder someone made meanwhile: it
 * is returned as such, to be bound read-only instead.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { processRuns } from '../shared/node/process-runs';
import { MARKER_PREFIX, markerPid } from './placeholder-marker';
import { UnguardableRootError, writableRootGuards } from './write-guards';

const ATTEMPTS = 8;
let sequence = 0;

export interface PlaceholderLease {
  /** Placeholders held for the command (mount an empty read-only tmpfs on each). */
  held: string[];
  /** Names that turned out to be real folders or files by now (bind each read-only onto itself). */
  real: string[];
  /** Removes this command's markers and every placeholder left empty. Safe to call more than once. */
  release(): Promise<void>;
}

/** Clears markers of dead processes; true when the folder holds nothing but markers. */
async function onlyMarkers(dir: string): Promise<boolean> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return false;
  }
  let foreign = false;
  for (const name of names) {
    const pid = markerPid(name);
    if (pid === null) foreign = true;
    else if (pid !== process.pid && !processRuns(pid)) await fsp.rm(path.join(dir, name), { force: true });
  }
  return !foreign;
}

type Held = { kind: 'held'; marker: string } | { kind: 'real' } | { kind: 'uncreatable' };

/** Errors that say nobody (the command included: it runs as the same user) can create a name there. */
const UNCREATABLE = new Set(['EROFS', 'EACCES', 'EPERM']);

async function hold(dir: string): Promise<Held> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      await fsp.mkdir(dir, { mode: 0o755 });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (UNCREATABLE.has(code)) return { kind: 'uncreatable' };
      if (code !== 'EEXIST') throw err;
    }
    const st = await fsp.lstat(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (st === undefined) continue; // removed between the two calls: try again
    if (!st.isDirectory() || !(await onlyMarkers(dir))) return { kind: 'real' };
    const marker = path.join(dir, `${MARKER_PREFIX}${process.pid}-${++sequence}`);
    try {
      await fsp.writeFile(marker, '', { flag: 'wx' });
      return { kind: 'held', marker };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // the folder was just removed: try again
    }
  }
  throw new Error(`could not hold a placeholder at ${dir}`);
}

/** Removes `dir` if it is empty (our own placeholder after the last marker went); anything else stays. */
async function removeIfEmpty(dir: string): Promise<void> {
  try {
    await fsp.rmdir(dir);
  } catch {
    // ENOTEMPTY: another command still uses it, or someone put files there; ENOENT: gone already
  }
}

/** Holds a placeholder at each absent path for one command. */
export async function leasePlaceholders(absent: readonly string[]): Promise<PlaceholderLease> {
  const held: string[] = [];
  const real: string[] = [];
  const markers: string[] = [];
  let released: Promise<void> | null = null;
  const release = (): Promise<void> =>
    (released ??= (async () => {
      for (const marker of markers) {
        await fsp.rm(marker, { force: true });
        await removeIfEmpty(path.dirname(marker));
      }
    })());
  try {
    for (const dir of absent) {
      const h = await hold(dir);
      if (h.kind === 'real') real.push(dir);
      else if (h.kind === 'held') {
        held.push(dir);
        markers.push(h.marker);
      }
    }
  } catch (err) {
    await release();
    throw err;
  }
  return { held, real, release };
}

/** The guards of one bubblewrap command, with their placeholders held until `release` (the command's cleanup). */
export interface HeldGuards {
  pins: string[];
  readOnly: string[];
  placeholders: string[];
  /** Every guarded path as named and as it lands (for violation messages). */
  paths: string[];
  release(): Promise<void>;
}

/**
 * Computes the guards and holds their placeholders; if a missing name turned into a real file or folder meanwhile,
 * starts again (that path is then bound read-only like any existing one). Throws `UnguardableRootError` when a
 * root cannot be guarded.
 */
export async function holdGuards(roots: readonly string[], home: string): Promise<HeldGuards> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const g = await writableRootGuards(roots, home);
    if (g.problems.length > 0) throw new UnguardableRootError(g.problems);
    const lease = await leasePlaceholders(g.absent);
    if (lease.real.length === 0)
      return { pins: g.pins, readOnly: g.readOnly, placeholders: lease.held, paths: g.paths, release: lease.release };
    await lease.release();
  }
  throw new Error(`the sandbox's guarded paths keep changing under ${roots.join(', ')}; try again`);
}
