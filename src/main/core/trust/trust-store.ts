import fs from 'node:fs';
import path from 'node:path';
import type { TrustDefault, TrustScope } from '../../../shared/permission';
import { GatehouseError } from '../../../shared/errors';
import type {
  TrustEntry,
  TrustExtensions,
  TrustExtensionsInput,
  TrustStatus,
  TrustStoreError,
} from '../../../shared/trust-contract';
import { writeFileAtomicAsync } from '../fs/atomic-write';
import { withStateLock } from '../fs/state-lock';
import { homeDir } from '../fs/config-dir';
import type { StoredTrustEntry } from './trust-file';
import { keepCorruptCopy } from './corrupt-copy';
import { readTrustFile, salvageTrustFile, serializeTrustFile, statSignature, type TrustFileRead } from './trust-file';
import { TrustDefaultFile, writeTrustDefault, type TrustDefaultRead } from './trust-settings';
import { osFoldsCase } from '../../../shared/node/platform-path';
import { realFolderPath, selfAndAncestors, trustKey } from './trust-paths';
import { extensionsOf, storedExtensions } from './trust-extensions';
import { trustStatus } from './trust-status';

export interface TrustStoreOptions {
  configDir: string;
  env?: NodeJS.ProcessEnv;
  /** Defaults to the platform (case-insensitive on macOS and Windows). */
  caseInsensitive?: boolean;
  now?: () => Date;
}

/** The decision that applies to a folder: `stored` is the file entry, null for a session decision. */
type Applying = { entry: TrustEntry; key: string; stored: StoredTrustEntry | null };
type Loaded = { entries: Map<string, StoredTrustEntry>; error: TrustStoreError | null };

/**
 * Per-folder trust decisions (permission-model.md, "Trust").
 *
 * - Decisions are keyed by the folder's normalised real path. `set(DIR, 'parent')` stores the decision at DIR's
 *   parent. Every decision covers the folder it is keyed by and everything below it; walking up from a folder,
 *   the nearest decision wins (so a child's `never` beats a trusted parent, and a trusted child of a `never`
 *   folder is trusted). Where a session and a stored decision share a key, the later one applies (a session
 *   grant made in the app over a stored `never`; a `never` set from the CLI after that session grant).
 * - `session` decisions live in this instance only. The others are in `trust.json`, re-read whenever the file
 *   changed on disk, so a revoke from another process applies on the next check.
 * - A corrupt store: every folder is untrusted (whatever the default), the bad file is copied next to it, the
 *   error is kept in `lastError()`, and writes are refused until `repair()` (an explicit act that keeps every
 *   entry that still validates): the person's decisions are never silently dropped.
 * - Writes are read-modify-write under a lock file, re-reading inside the lock, so the app and the CLI writing
 *   at once lose no decision.
 */
export class TrustStore {
  readonly storeFile: string;
  private readonly caseInsensitive: boolean;
  private readonly now: () => Date;
  private readonly session = new Map<string, TrustEntry>();
  private cache: ({ signature: string } & Loaded) | null = null;
  private readonly defaults: TrustDefaultFile;

  constructor(private readonly options: TrustStoreOptions) {
    this.storeFile = path.join(options.configDir, 'trust.json');
    // Keys are stored folded where the OS usually folds case: one answer for every folder the store holds, so a
    // decision stored on one machine is found again whatever volume its folder is on.
    this.caseInsensitive = options.caseInsensitive ?? osFoldsCase();
    this.now = options.now ?? (() => new Date());
    this.defaults = new TrustDefaultFile(options.configDir);
  }

  /** The normalised real path the store uses for a folder. */
  resolve(dir: string): Promise<string> {
    return realFolderPath(dir);
  }

  /** The problem with the store file, if it is corrupt (then every folder is untrusted). */
  async lastError(): Promise<TrustStoreError | null> {
    return (await this.load()).error;
  }

  async trustDefault(): Promise<TrustDefault> {
    return (await this.defaults.read()).value;
  }

  /** The permission engine's question (TrustOracle): is this project trusted right now? */
  async isTrusted(dir: string): Promise<boolean> {
    return (await this.check(dir)).trusted;
  }

  /** The trust status of `dir`: the store and the trust default are read without blocking. */
  async check(dir: string): Promise<TrustStatus> {
    const [real, loaded, settings] = await Promise.all([realFolderPath(dir), this.load(), this.defaults.read()]);
    return this.statusOf(real, loaded, settings);
  }

  private statusOf(real: string, loaded: Loaded, settings: TrustDefaultRead): TrustStatus {
    const applying = loaded.error ? null : (this.applying(real, loaded.entries)?.entry ?? null);
    return trustStatus({ path: real, storeFile: this.storeFile, error: loaded.error, applying, settings });
  }

  /** Records a decision for `dir` (`parent`: for its parent and everything below). Returns the new status. */
  async set(dir: string, scope: TrustScope, given?: TrustExtensionsInput): Promise<TrustStatus> {
    const extensions: TrustExtensions | undefined = given ? { mcp: true, ...given } : undefined;
    const real = await realFolderPath(dir);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(real);
    } catch {
      throw new GatehouseError('NOT_FOUND', `folder not found: ${dir}`);
    }
    if (!stat.isDirectory()) throw new GatehouseError('BAD_REQUEST', `not a folder: ${dir}`);
    let target = real;
    if (scope === 'parent') {
      const parent = await this.parentToTrust(real);
      if (!parent)
        throw new GatehouseError(
          'BAD_REQUEST',
          `will not trust the parent of ${real}: it is the file-system root or your home folder (trust the folder itself)`,
        );
      target = parent;
    }
    if (scope !== 'never' && isFileSystemRoot(target))
      throw new GatehouseError('BAD_REQUEST', `will not trust the whole file system (${target})`);
    const key = this.key(target);
    const grantedAt = this.now().toISOString();
    if (scope === 'session') {
      this.session.set(key, {
        path: target,
        scope,
        grantedAt,
        lastOpened: grantedAt,
        grantedFrom: real,
        stored: false,
        ...storedExtensions(extensions ?? this.session.get(key)?.extensions),
      });
      return this.check(real);
    }
    await this.mutate((entries) => {
      const previous = entries.get(key);
      entries.set(key, {
        path: target,
        scope,
        grantedAt,
        lastOpened: previous?.lastOpened ?? null,
        grantedFrom: real,
        ...(scope === 'never' ? {} : storedExtensions(extensions ?? previous?.extensions)),
      });
    });
    this.session.delete(key);
    return this.check(real);
  }

  /**
   * Switches which project extensions (rules, hooks, instructions) the decision that trusts `dir` enables; the
   * switches not named keep their value. Refused where no decision of its own trusts the folder.
   */
  async setExtensions(dir: string, change: Partial<TrustExtensions>): Promise<TrustStatus> {
    const real = await realFolderPath(dir);
    await this.mutate((entries) => {
      const applying = this.applying(real, entries);
      if (!applying || applying.entry.scope === 'never')
        throw new GatehouseError('BAD_REQUEST', `${real} is not trusted by a decision: trust it first`);
      const next = { ...extensionsOf(applying.entry), ...change };
      if (!applying.stored) {
        const { extensions: _old, ...rest } = applying.entry;
        this.session.set(applying.key, { ...rest, ...storedExtensions(next) });
        return false;
      }
      const { extensions: _was, ...rest } = applying.stored;
      entries.set(applying.key, { ...rest, ...storedExtensions(next) });
      return true;
    });
    return this.check(real);
  }

  /**
   * The folder a `parent` decision for `dir` would trust, or null where that would be too wide: the file-system
   * root or the home folder (a project directly in ~ must not silently trust everything in ~).
   */
  async parentToTrust(dir: string): Promise<string | null> {
    const real = await realFolderPath(dir);
    const parent = path.dirname(real);
    if (parent === real || isFileSystemRoot(parent)) return null;
    const home = await realFolderPath(homeDir(this.options.env ?? process.env));
    if (this.key(parent) === this.key(home)) return null;
    return parent;
  }

  /**
   * Makes `dir` undecided again: removes the decision keyed at it (whatever its scope) and then every trusting
   * decision that still applies to it from an ancestor (a `parent` grant made from it, or a trusted ancestor),
   * session ones included. Returns what was removed. Session decisions of other processes are theirs to drop.
   */
  async revoke(dir: string): Promise<TrustEntry[]> {
    const real = await realFolderPath(dir);
    const ownKey = this.key(real);
    let removed: TrustEntry[] = [];
    await this.mutate((entries) => {
      removed = [];
      const ownSession = this.session.get(ownKey);
      if (ownSession) removed.push(ownSession);
      this.session.delete(ownKey);
      const ownStored = entries.get(ownKey);
      if (ownStored) removed.push({ ...ownStored, stored: true });
      entries.delete(ownKey);
      for (;;) {
        const applying = this.applying(real, entries);
        if (!applying || applying.entry.scope === 'never') break;
        removed.push(applying.entry);
        if (applying.entry.stored) entries.delete(applying.key);
        else this.session.delete(applying.key);
      }
      return removed.some((e) => e.stored);
    });
    return removed;
  }

  /** Every decision: stored ones and this process's session ones, by path. */
  async list(): Promise<TrustEntry[]> {
    const { entries, error } = await this.load();
    const stored = error ? [] : [...entries.values()].map((e) => ({ ...e, stored: true }));
    return [...stored, ...this.session.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async setDefault(value: TrustDefault): Promise<void> {
    await writeTrustDefault(this.options.configDir, value);
  }

  /** Notes that `dir` was opened, on the stored decision that applies to it. Never throws: opening must not fail. */
  async touch(dir: string): Promise<boolean> {
    try {
      const real = await realFolderPath(dir);
      const at = this.now().toISOString();
      let touched = false;
      await this.mutate((entries) => {
        const applying = this.applying(real, entries);
        if (!applying || applying.entry.scope === 'never') return false;
        touched = true;
        if (!applying.stored) {
          applying.entry.lastOpened = at;
          return false;
        }
        entries.set(applying.key, { ...applying.stored, lastOpened: at });
        return true;
      }, 1_000);
      return touched;
    } catch {
      return false;
    }
  }

  /**
   * Replaces a corrupt store with the entries of it that still validate (the whole bad file stays in its copy).
   * Returns how many entries were kept and dropped.
   */
  async repair(): Promise<{ kept: number; dropped: number; copy: string | null }> {
    return withStateLock(this.storeFile, async () => {
      const read = await readTrustFile(this.storeFile);
      if (read.kind === 'ok') return { kept: read.file.entries.length, dropped: 0, copy: null };
      const copy = await keepCorruptCopy(this.storeFile, read.raw, this.now());
      const salvaged = salvageTrustFile(read.raw);
      await writeFileAtomicAsync(this.storeFile, serializeTrustFile(salvaged.entries));
      this.cache = null;
      return { kept: salvaged.entries.length, dropped: salvaged.dropped, copy };
    });
  }

  private key(realPath: string): string {
    return trustKey(realPath, this.caseInsensitive);
  }

  /** The nearest decision walking up from `real` (at one level, the later of a session and a stored one). */
  private applying(real: string, entries: Map<string, StoredTrustEntry>): Applying | null {
    for (const folder of selfAndAncestors(real)) {
      const key = this.key(folder);
      const s = this.session.get(key);
      const e = entries.get(key);
      // Both at one folder: the later decision applies (e.g. a `never` set from the CLI after a session grant).
      if (s && (!e || Date.parse(s.grantedAt) >= Date.parse(e.grantedAt))) return { entry: s, key, stored: null };
      if (e) return { entry: { ...e, stored: true }, key, stored: e };
    }
    return null;
  }

  /** The stored decisions, re-read when the file changed on disk. */
  private async load(): Promise<Loaded> {
    const signature = await statSignature(this.storeFile);
    if (this.cache && this.cache.signature === signature) return this.cache;
    const read = await readTrustFile(this.storeFile);
    const copy = read.kind === 'ok' ? null : await keepCorruptCopy(this.storeFile, read.raw, this.now());
    this.cache = { signature, ...this.loaded(read, copy) };
    return this.cache;
  }

  private loaded(read: TrustFileRead, copy: string | null): Loaded {
    const entries = new Map<string, StoredTrustEntry>();
    if (read.kind !== 'ok') return { entries, error: { path: this.storeFile, reason: read.reason, copy } };
    for (const e of read.file.entries) {
      const key = this.key(e.path);
      const existing = entries.get(key);
      // Two entries for one folder (hand-edited file): the more restrictive one applies.
      if (!existing || e.scope === 'never') entries.set(key, e);
    }
    return { entries, error: null };
  }

  /** Read-modify-write of the stored decisions under the lock, re-reading inside it. Refused on a corrupt store. */
  private async mutate(
    change: (entries: Map<string, StoredTrustEntry>) => boolean | void,
    lockTimeoutMs?: number,
  ): Promise<void> {
    await withStateLock(
      this.storeFile,
      async () => {
        this.cache = null;
        const { entries, error } = await this.load();
        if (error) {
          throw new GatehouseError(
            'INTERNAL',
            `the trust store ${error.path} is corrupt (${error.reason}); nothing was changed. A copy is kept at ${error.copy ?? '(copy failed)'}. Fix the file, or run \`gatehouse trust repair\` to keep the entries that are still valid.`,
          );
        }
        const next = new Map(entries);
        if (change(next) === false) return;
        await writeFileAtomicAsync(this.storeFile, serializeTrustFile([...next.values()]));
        this.cache = null;
      },
      lockTimeoutMs === undefined ? {} : { timeoutMs: lockTimeoutMs },
    );
  }
}

function isFileSystemRoot(dir: string): boolean {
  return path.dirname(dir) === dir;
}
