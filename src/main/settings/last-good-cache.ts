import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { PermissionModeSchema } from '../../shared/permission';
import fs from 'node:fs';
import { properLockfile } from '../fs/proper-lockfile';
import { writeFileAtomic, writeFileAtomicAsync } from '../fs/atomic-write';
import { MAX_SETTINGS_BYTES, MAX_STATE_BYTES, readRegularFile, readRegularFileSync } from '../fs/read-regular-file';
import { withStateLock } from '../fs/state-lock';
import type { FileSettings } from './settings-schema';

const FileSettingsSchema = z.object({
  mode: PermissionModeSchema.optional(),
  allow: z.array(z.string()),
  ask: z.array(z.string()),
  deny: z.array(z.string()),
  additionalDirectories: z.array(z.string()),
  hooks: z
    .array(
      z.object({
        event: z.string(),
        matcher: z.string(),
        type: z.string(),
        command: z.string().nullable(),
        timeout: z.number().nullable(),
      }),
    )
    .optional(),
});
const EntrySchema = z.object({
  file: z.string(),
  /** When the version was seen: the settings file's ctime (ns) for a good parse, the clock for a removal. */
  stamp: z.string().regex(/^\d+$/),
  settings: FileSettingsSchema.nullable(),
});
type Entry = z.infer<typeof EntrySchema>;
/** The cache of earlier versions: one JSON file mapping settings file -> settings (read for entries it has). */
const LegacySchema = z.record(z.string(), FileSettingsSchema);

/**
 * The last good settings of each file, kept on disk (in the user config directory, which the agent cannot write), so
 * that a settings file that is broken when a new process starts (each `gatehouse permissions check`, a restarted app)
 * still applies its last good version instead of nothing: a broken edit never loosens.
 *
 * One entry file per settings file (`settings-last-good/<hash>.json`), so processes recording different settings
 * files never touch each other's entries; one settings file's entry is replaced under its lock, and only by a version
 * seen later than the one stored (a slow process cannot put back an older version over a newer one). The lock is
 * taken without waiting when it is free (the entry is written at once, as the settings file was just read); when
 * another process holds it, the write waits for it in the background (never blocking the thread).
 */
export class LastGoodCache {
  readonly dir: string;
  private readonly legacyFile: string;
  private readonly memory = new Map<string, FileSettings | null>();
  private readonly writes = new Set<Promise<void>>();

  constructor(configDir: string) {
    this.dir = path.join(configDir, 'settings-last-good');
    this.legacyFile = path.join(configDir, 'settings-last-good.json');
  }

  entryFile(settingsFile: string): string {
    return path.join(this.dir, `${createHash('sha256').update(settingsFile).digest('hex').slice(0, 40)}.json`);
  }

  get(settingsFile: string): FileSettings | null {
    if (this.memory.has(settingsFile)) return this.memory.get(settingsFile) ?? null;
    const entry = readEntrySync(this.entryFile(settingsFile), settingsFile);
    const found = entry ? entry.settings : this.legacy(settingsFile);
    this.memory.set(settingsFile, found);
    return found;
  }

  /**
   * Records a good parse (or, with null, that the file is gone), seen at `stamp` (ns). Written in the background,
   * best effort: the cache only helps the next process; `flush()` waits for the writes.
   */
  set(settingsFile: string, settings: FileSettings | null, stamp: bigint): void {
    // A file that is absent and has no recorded version (the usual case for most of the seven files): nothing to do.
    if (settings === null && this.get(settingsFile) === null) return;
    const before = this.memory.has(settingsFile) ? (this.memory.get(settingsFile) ?? null) : undefined;
    this.memory.set(settingsFile, settings);
    if (before !== undefined && JSON.stringify(before) === JSON.stringify(settings)) return;
    // Usually the entry's lock is free: written at once. Held by another process: written when it is free.
    if (this.storeNow(settingsFile, settings, stamp)) return;
    const write = this.store(settingsFile, settings, stamp).catch(() => undefined);
    this.writes.add(write);
    void write.then(() => this.writes.delete(write));
  }

  /** The entry's compare-and-write if its lock can be taken without waiting; false when another process holds it. */
  private storeNow(settingsFile: string, settings: FileSettings | null, stamp: bigint): boolean {
    const file = this.entryFile(settingsFile);
    let release: () => void;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      release = properLockfile().lockSync(file, { realpath: false, stale: 10_000 });
    } catch (err) {
      // Locked by someone else: retried asynchronously. Anything else: best effort, the cache only helps later.
      return (err as NodeJS.ErrnoException).code !== 'ELOCKED';
    }
    try {
      const stored = readEntrySync(file, settingsFile);
      if (stored && BigInt(stored.stamp) > stamp) return true;
      if (stored && JSON.stringify(stored.settings) === JSON.stringify(settings)) return true;
      writeFileAtomic(
        file,
        JSON.stringify({ file: settingsFile, stamp: stamp.toString(), settings } satisfies Entry, null, 2) + '\n',
      );
    } catch {
      // best effort
    } finally {
      try {
        release();
      } catch {
        // already released
      }
    }
    return true;
  }

  /** Resolves when every write started so far has finished. */
  async flush(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  private async store(settingsFile: string, settings: FileSettings | null, stamp: bigint): Promise<void> {
    const file = this.entryFile(settingsFile);
    await withStateLock(file, async () => {
      let stored: Entry | null;
      try {
        stored = parseEntry(
          await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'a last-good settings entry' }),
          settingsFile,
        );
      } catch {
        stored = null;
      }
      if (stored && BigInt(stored.stamp) > stamp) return; // a newer version is recorded already
      if (stored && JSON.stringify(stored.settings) === JSON.stringify(settings)) return;
      const entry: Entry = { file: settingsFile, stamp: stamp.toString(), settings };
      await writeFileAtomicAsync(file, JSON.stringify(entry, null, 2) + '\n');
    });
  }

  private legacy(settingsFile: string): FileSettings | null {
    try {
      const parsed = LegacySchema.safeParse(
        JSON.parse(
          readRegularFileSync(this.legacyFile, { maxBytes: MAX_STATE_BYTES, what: 'the last-good settings cache' }),
        ),
      );
      return parsed.success ? (parsed.data[settingsFile] ?? null) : null;
    } catch {
      return null;
    }
  }
}

function parseEntry(text: string, settingsFile: string): Entry | null {
  const parsed = EntrySchema.safeParse(JSON.parse(text));
  return parsed.success && parsed.data.file === settingsFile ? parsed.data : null;
}

function readEntrySync(file: string, settingsFile: string): Entry | null {
  try {
    return parseEntry(
      readRegularFileSync(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'a last-good settings entry' }),
      settingsFile,
    );
  } catch {
    return null;
  }
}
