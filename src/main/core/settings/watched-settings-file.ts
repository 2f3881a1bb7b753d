import { MAX_SETTINGS_BYTES, readFailure, readRegularFile } from '../fs/read-regular-file';
import type { LastGoodCache } from './last-good-cache';
import { statKey, type FileKey } from './settings-file-keys';
import { parseSettingsText, type SettingsFileError, type SettingsKeyProblem } from './parse-settings';
import type { SettingsFormat } from './unknown-keys';
import { EMPTY_SETTINGS, type FileSettings } from './settings-schema';

/**
 * The last good settings of every file, kept for the life of the process: a file that becomes malformed keeps
 * its last good version in force (a broken edit never loosens anything).
 */
const lastGoodByFile = new Map<string, FileSettings>();

/**
 * Forgets every last good version this process saw, as a fresh process would not have them: the CLI's decision
 * helper calls this before each request, so a broken file is judged as a one-shot `gatehouse` would judge it.
 */
export function forgetLastGoodSettings(): void {
  lastGoodByFile.clear();
}

function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/**
 * One settings file, re-read when it changes: `refresh()` stats it (inode, size, mtime, ctime in ns) on every
 * check (or is given its key: settings-file-keys.ts) and re-parses only when that changed. Stat-per-check was chosen
 * over fs.watch (`measureStatPerCheckUs` in bench-support.ts says what it costs): a watcher delivers changes
 * asynchronously (an edit would not surely apply to the very next call), misses files replaced by rename on some
 * platforms and network filesystems, and cannot watch files that do not exist yet. A missing file means "no
 * settings"; an unreadable or malformed one is reported (path, line, reason) and its last good version stays in force.
 *
 * Only a regular file of at most 1 MiB is read (opened non-blocking, checked with fstat): a FIFO, a device (a link to
 * /dev/zero), a socket or a huge file is refused as broken, never read, so it can neither hang nor exhaust memory.
 * A broken file that never had a good version has deny and ask rules nobody can know: `unknownRules()` says so, and
 * the engine then lets nothing through without a person (see stages/unknown-settings.ts).
 */
export class WatchedSettingsFile {
  private key: string | null = null;
  private settings: FileSettings = EMPTY_SETTINGS;
  private problem: SettingsFileError | null = null;
  private present = false;
  private unknown = false;
  private keys: SettingsKeyProblem[] = [];

  constructor(
    readonly file: string,
    private readonly persisted: LastGoodCache | null = null,
    private readonly format: SettingsFormat = 'gatehouse',
    /** A file in a place Gatehouse does not read settings from (see SettingsLocation.misplaced). */
    private readonly misplaced: { expected: string } | null = null,
  ) {}

  /**
   * Returns true when the file's effective settings or error may have changed. Stats the file (or takes `now`, its
   * key as just stat'ed: see settings-file-keys.ts) and reads it with fs.promises when it changed.
   */
  async refresh(now?: FileKey): Promise<boolean> {
    const { key, ctimeNs } = now ?? (await statKey(this.file));
    if (key === this.key) return false;
    // The recorded last good version, read now without blocking: `absent`, `apply` and `fail` then use memory.
    await this.persisted?.load(this.file);
    if (key === 'absent') return this.absent();
    let text: string;
    try {
      text = await readRegularFile(this.file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' });
    } catch (err) {
      return this.unreadable(key, err);
    }
    return this.apply(key, ctimeNs, text);
  }

  private absent(): boolean {
    this.key = 'absent';
    this.present = false;
    this.problem = null;
    this.unknown = false;
    this.keys = [];
    this.settings = EMPTY_SETTINGS;
    lastGoodByFile.delete(this.file);
    this.persisted?.set(this.file, null, nowNs());
    return true;
  }

  private unreadable(key: string, err: unknown): boolean {
    this.key = key;
    this.present = true;
    this.fail({ file: this.file, line: null, column: null, reason: readFailure(err) });
    return true;
  }

  private apply(key: string, ctimeNs: bigint, text: string): boolean {
    this.key = key;
    this.present = true;
    const result = parseSettingsText(this.file, text, this.format);
    if (result.ok) {
      const settings = this.misplaced ? restrictiveOnly(result.settings) : result.settings;
      this.problem = this.misplaced ? misplacedError(this.file, this.misplaced.expected) : null;
      this.unknown = false;
      this.keys = this.misplaced ? [] : result.keyProblems;
      this.settings = settings;
      lastGoodByFile.set(this.file, settings);
      this.persisted?.set(this.file, settings, ctimeNs);
    } else {
      this.fail(result.error);
    }
    return true;
  }

  private fail(error: SettingsFileError): void {
    this.problem = this.misplaced
      ? { ...error, reason: `${error.reason}; ${misplacedError(this.file, this.misplaced.expected).reason}` }
      : error;
    this.keys = [];
    const lastGood = lastGoodByFile.get(this.file) ?? this.persisted?.get(this.file) ?? null;
    this.unknown = lastGood === null;
    this.settings = lastGood ?? EMPTY_SETTINGS;
  }

  /** True when the file was not there when last looked at. */
  wasAbsent(): boolean {
    return this.key === 'absent';
  }

  /** True when the file is broken and no good version of it was ever seen: its deny and ask rules are unknown. */
  unknownRules(): boolean {
    return this.unknown;
  }

  /** The settings in force: the file's, or its last good version when the file is broken. */
  current(): FileSettings {
    return this.settings;
  }

  /** Unknown keys of the file as it is now (reported; empty while the file is broken). */
  keyProblems(): readonly SettingsKeyProblem[] {
    return this.keys;
  }

  error(): SettingsFileError | null {
    return this.problem;
  }

  exists(): boolean {
    return this.present;
  }
}

/** A misplaced file's settings as they apply: its deny and ask rules only (never an allow, a mode, a hook...). */
function restrictiveOnly(settings: FileSettings): FileSettings {
  return { ...EMPTY_SETTINGS, deny: settings.deny, ask: settings.ask };
}

function misplacedError(file: string, expected: string): SettingsFileError {
  return {
    file,
    line: null,
    column: null,
    reason: `not a settings file Gatehouse reads: did you mean ${expected}?`,
    effect:
      'only its deny and ask rules are applied until you move it (never loosens); its allow rules and other settings are not',
    suggestion: expected,
  };
}
