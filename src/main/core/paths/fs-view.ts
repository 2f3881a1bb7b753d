import fs from 'node:fs';
import { HOST_PATHS, type PathSystem } from '../../../shared/node/platform-path';

/**
 * How the engine looks at the disk while it judges paths: `lstat`, `readlink`, `readdir`. The rules are synchronous
 * code, and the disk is read without blocking: `PrefetchedFs` answers from what was fetched asynchronously before,
 * and notes what it did not have. The engine's `decide` evaluates a call, fetches whatever was missing through its
 * `EngineDisk`, and evaluates again until nothing is missing (`settle`): no shell waits on the disk (a frozen
 * Electron main process freezes every window), each path is read at most once per decision, and the final answer was
 * computed from what is on disk at that moment.
 */
export interface FsView {
  /** lstat, or null when nothing is there (or it cannot be looked at). */
  lstat(p: string): fs.Stats | null;
  /** The target of a symlink; throws when `p` is not one. */
  readlink(p: string): string;
  /** The entries of a folder, or null when it cannot be read. */
  readdir(p: string): fs.Dirent[] | null;
  /**
   * A hint that every folder below `p` is about to be listed (a reader of a whole tree): a prefetching view fetches
   * them all in one round (up to `maxEntries` entries) instead of one level per round. Others ignore it.
   */
  prefetchTree?(p: string, maxEntries: number): void;
}

/**
 * The disk the engine judges paths on: this machine's (`nodeDisk`), or one that maps another platform's paths onto it
 * (a test of Windows paths on Linux maps `C:\proj` to a temporary folder). Every read of the disk the engine makes
 * (real paths of roots, links, folders, the volume's case folding, settings files) goes through one of these.
 */
export interface EngineDisk {
  lstat(p: string): Promise<fs.Stats | null>;
  readlink(p: string): Promise<string | null>;
  readdir(p: string): Promise<fs.Dirent[] | null>;
  /** `stat` following links (device and inode), null when nothing is there. */
  stat(p: string): Promise<{ dev: number | bigint; ino: number | bigint } | null>;
  /** The real path of something that exists; rejects otherwise. */
  realpath(p: string): Promise<string>;
  /** Where this machine keeps the file the engine calls `p` (the settings files are read there). */
  hostPath(p: string): string;
}

// fs's callback API, not fs.promises: a decision makes many small reads, most of them of paths that do not exist,
// and fs.promises costs more per call there (a rejected promise with a captured stack each).
function lstatOrNull(p: string): Promise<fs.Stats | null> {
  return new Promise((resolve) => fs.lstat(p, (err, st) => resolve(err ? null : st)));
}

function readlinkOrNull(p: string): Promise<string | null> {
  return new Promise((resolve) => fs.readlink(p, (err, target) => resolve(err ? null : target)));
}

function readdirOrNull(p: string): Promise<fs.Dirent[] | null> {
  return new Promise((resolve) =>
    fs.readdir(p, { withFileTypes: true }, (err, entries) => resolve(err ? null : entries)),
  );
}

export const nodeDisk: EngineDisk = {
  lstat: lstatOrNull,
  readlink: readlinkOrNull,
  readdir: readdirOrNull,
  stat: (p) => fs.promises.stat(p, { bigint: true }).catch(() => null),
  realpath: (p) => fs.promises.realpath(p),
  hostPath: (p) => p,
};

type Miss = { op: 'lstat' | 'readlink' | 'readdir'; path: string } | { op: 'tree'; path: string; max: number };

/**
 * Answers from what was fetched; a question it cannot answer yet is noted and answered "nothing there" for now
 * (the evaluation that saw it is thrown away and run again once the answer is fetched).
 */
export class PrefetchedFs implements FsView {
  private readonly lstats = new Map<string, fs.Stats | null>();
  private readonly links = new Map<string, string | null>();
  private readonly dirs = new Map<string, fs.Dirent[] | null>();
  private misses: Miss[] = [];

  constructor(
    private readonly disk: Pick<EngineDisk, 'lstat' | 'readlink' | 'readdir'> = nodeDisk,
    private readonly paths: PathSystem = HOST_PATHS,
  ) {}

  lstat(p: string): fs.Stats | null {
    if (this.lstats.has(p)) return this.lstats.get(p) ?? null;
    this.misses.push({ op: 'lstat', path: p });
    return null;
  }

  readlink(p: string): string {
    const t = this.links.get(p);
    if (t === undefined) this.misses.push({ op: 'readlink', path: p });
    if (typeof t !== 'string') throw new Error(`not a symbolic link: ${p}`);
    return t;
  }

  readdir(p: string): fs.Dirent[] | null {
    if (this.dirs.has(p)) return this.dirs.get(p) ?? null;
    this.misses.push({ op: 'readdir', path: p });
    return null;
  }

  prefetchTree(p: string, maxEntries: number): void {
    if (this.dirs.has(p)) return;
    this.misses.push({ op: 'tree', path: p, max: maxEntries });
  }

  /** Lists `root` and the folders below it (not through links), breadth first, up to `max` entries in all. */
  private async fetchTree(root: string, max: number): Promise<void> {
    let level = [root];
    let seen = 0;
    while (level.length > 0 && seen <= max) {
      const listed = await Promise.all(
        level.map(async (dir) => {
          if (!this.dirs.has(dir)) this.dirs.set(dir, await this.disk.readdir(dir));
          return { dir, entries: this.dirs.get(dir) ?? [] };
        }),
      );
      const next: string[] = [];
      for (const { dir, entries } of listed) {
        seen += entries.length;
        for (const e of entries) if (e.isDirectory()) next.push(this.paths.join(dir, e.name));
      }
      level = next;
    }
  }

  /** True when the last evaluation asked for something not fetched yet. */
  get missed(): boolean {
    return this.misses.length > 0;
  }

  /** Fetches everything the last evaluation missed, in parallel, without blocking; each path once. */
  async fetchMissing(): Promise<void> {
    const misses = this.misses;
    this.misses = [];
    const asked = new Set<string>();
    const fetches: Promise<void>[] = [];
    for (const miss of misses) {
      const { op, path } = miss;
      const key = `${op}\0${path}`;
      if (asked.has(key)) continue;
      asked.add(key);
      if (miss.op === 'tree') fetches.push(this.fetchTree(path, miss.max));
      else if (op === 'lstat' && !this.lstats.has(path))
        fetches.push(this.disk.lstat(path).then((st) => void this.lstats.set(path, st)));
      else if (op === 'readlink' && !this.links.has(path))
        fetches.push(this.disk.readlink(path).then((target) => void this.links.set(path, target)));
      else if (op === 'readdir' && !this.dirs.has(path))
        fetches.push(this.disk.readdir(path).then((entries) => void this.dirs.set(path, entries)));
    }
    await Promise.all(fetches);
  }
}

/** Past this many rounds of fetching (a long chain of symbolic links), `settle` gives up. */
const MAX_PREFETCH_ROUNDS = 64;

/**
 * Runs `fn` against a prefetched view until it runs without missing anything: each round fetches, without blocking,
 * what the previous one asked for. The final run saw only fetched answers, so its result (or its error) is what `fn`
 * gives for the disk as it was read.
 */
export async function settle<T>(fn: (view: FsView) => T, view: PrefetchedFs = new PrefetchedFs()): Promise<T> {
  for (let round = 0; ; round++) {
    let result: T | undefined;
    let error: unknown = null;
    try {
      result = fn(view);
    } catch (err) {
      error = err;
    }
    if (!view.missed) {
      if (error !== null) throw error;
      return result as T;
    }
    if (round >= MAX_PREFETCH_ROUNDS) throw new Error('too many levels of symbolic links to follow');
    await view.fetchMissing();
  }
}
