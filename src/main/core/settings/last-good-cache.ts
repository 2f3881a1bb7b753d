import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { PermissionModeSchema } from '../../../shared/permission';
import { writeFileAtomicAsync } from '../fs/atomic-write';
import { MAX_SETTINGS_BYTES, MAX_STATE_BYTES, readRegularFile } from '../fs/read-regular-file';
import { withStateLock } from '../fs/state-lock';
import { McpServerEntrySchema } from '../../../shared/mcp-contract';
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
  mcpServers: z.array(z.object({ name: z.string(), entry: McpServerEntrySchema })).optional(),
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

/** Every cache's writes still under way in this process (each store's cache is its own instance). */
const pendingWrites = new Set<Promise<void>>();

/**
 * Resolves when every last-good write started so far in this process, by any cache, has finished: a process that
 * stops (the app quitting, `gatehouse web` ending) waits for it, so an entry is never left half made.
 */
export async function flushLastGoodWrites(): Promise<void> {
  while (pendingWrites.size) await Promise.all([...pendingWrites]);
}

/**
 * The last good settings of each file, kept on disk (in the user config directory, which the agent cannot write), so
 * that a settings file that is broken when a new process starts (each `gatehouse permissions check`, a restarted app)
 * still applies its last good version instead of nothing: a broken edit never loosens.
 *
 * One entry file per settings file (`settings-last-good/<hash>.json`), so processes recording different settings
 * files never touch each other's entries; one settings file's entry is replaced under its lock, and only by a version
 * seen later than the one stored (a slow process cannot put back an older version over a newer one). Reads and
 * writes are asynchronous (the write waits for the lock in the background; a one-shot process exits only once its
 * writes are done): `load` reads a file's recorded version into memory, and `get` and `set` answer from memory.
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

  /** The recorded version as `load` read it (or `set` recorded it since); null when there is none or it was not loaded. */
  get(settingsFile: string): FileSettings | null {
    return this.memory.get(settingsFile) ?? null;
  }

  /** Reads the recorded version of `settingsFile` into memory without blocking (once per file and process). */
  async load(settingsFile: string): Promise<void> {
    if (this.memory.has(settingsFile)) return;
    const [entry, legacy] = await Promise.all([readJson(this.entryFile(settingsFile)), readJson(this.legacyFile)]);
    if (!this.memory.has(settingsFile)) this.memory.set(settingsFile, recorded(entry, legacy, settingsFile));
  }

  /**
   * Records a good parse (or, with null, that the file is gone), seen at `stamp` (ns). Written in the background
   * (never blocking the thread), best effort: the cache only helps the next process; `flush()` waits for the writes.
   */
  set(settingsFile: string, settings: FileSettings | null, stamp: bigint): void {
    // A file that is absent and has no recorded version (the usual case for most of the files; `load` read it first):
    // nothing to do.
    if (settings === null && this.get(settingsFile) === null) return;
    const before = this.memory.has(settingsFile) ? (this.memory.get(settingsFile) ?? null) : undefined;
    this.memory.set(settingsFile, settings);
    if (before !== undefined && JSON.stringify(before) === JSON.stringify(settings)) return;
    const write = this.store(settingsFile, settings, stamp).catch(() => undefined);
    this.writes.add(write);
    pendingWrites.add(write);
    void write.then(() => {
      this.writes.delete(write);
      pendingWrites.delete(write);
    });
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
}

function parseEntry(text: string, settingsFile: string): Entry | null {
  const parsed = EntrySchema.safeParse(JSON.parse(text));
  return parsed.success && parsed.data.file === settingsFile ? parsed.data : null;
}

type Json = { text: string } | null;

/** A small JSON state file's text, or null when it cannot be read (the cache is best effort). */
async function readJson(file: string): Promise<Json> {
  try {
    return { text: await readRegularFile(file, { maxBytes: MAX_STATE_BYTES, what: 'the last-good settings cache' }) };
  } catch {
    return null;
  }
}

/** The version recorded for `settingsFile`: its own entry, else the earlier single-file cache's. */
function recorded(entry: Json, legacy: Json, settingsFile: string): FileSettings | null {
  try {
    const own = entry ? parseEntry(entry.text, settingsFile) : null;
    if (own) return own.settings;
  } catch {
    // unreadable entry: as if none
  }
  try {
    const parsed = legacy ? LegacySchema.safeParse(JSON.parse(legacy.text)) : null;
    return parsed?.success ? (parsed.data[settingsFile] ?? null) : null;
  } catch {
    return null;
  }
}
