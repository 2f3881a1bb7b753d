import fs from 'node:fs';
import type { LastGoodCache } from './last-good-cache';
import { parseSettingsText, type SettingsFileError } from './parse-settings';
import { EMPTY_SETTINGS, type FileSettings } from './settings-schema';

/**
 * The last good settings of every file, kept for the life of the process: a file that becomes malformed keeps
 * its last good version in force (a broken edit never loosens anything).
 */
const lastGoodByFile = new Map<string, FileSettings>();

function statKey(file: string): string {
  try {
    const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    if (st === undefined) return 'absent';
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : `error:${code ?? 'unknown'}`;
  }
}

/**
 * One settings file, re-read when it changes: `refresh()` stats it (inode, size, mtime, ctime in ns) on every
 * check and re-parses only when that changed. Stat-per-check was chosen over fs.watch: stat'ing the seven
 * settings files costs tens of microseconds per decision (see `measureStatPerCheckUs` in bench-support.ts), while
 * a watcher delivers changes asynchronously (an edit would not surely apply to the very next call), misses
 * files replaced by rename on some platforms and network filesystems, and cannot watch files that do not exist yet. A missing file means "no settings"; an unreadable or malformed one
 * is reported (path, line, reason) and its last good version stays in force.
 */
export class WatchedSettingsFile {
  private key: string | null = null;
  private settings: FileSettings = EMPTY_SETTINGS;
  private problem: SettingsFileError | null = null;
  private present = false;

  constructor(
    readonly file: string,
    private readonly persisted: LastGoodCache | null = null,
  ) {}

  /** Returns true when the file's effective settings or error may have changed. */
  refresh(): boolean {
    const key = statKey(this.file);
    if (key === this.key) return false;
    this.key = key;
    if (key === 'absent') {
      this.present = false;
      this.problem = null;
      this.settings = EMPTY_SETTINGS;
      lastGoodByFile.delete(this.file);
      this.persisted?.set(this.file, null);
      return true;
    }
    this.present = true;
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      this.fail({ file: this.file, line: null, column: null, reason: `cannot read: ${(err as Error).message}` });
      return true;
    }
    const result = parseSettingsText(this.file, text);
    if (result.ok) {
      this.problem = null;
      this.settings = result.settings;
      lastGoodByFile.set(this.file, result.settings);
      this.persisted?.set(this.file, result.settings);
    } else {
      this.fail(result.error);
    }
    return true;
  }

  private fail(error: SettingsFileError): void {
    this.problem = error;
    this.settings = lastGoodByFile.get(this.file) ?? this.persisted?.get(this.file) ?? EMPTY_SETTINGS;
  }

  /** The settings in force: the file's, or its last good version when the file is broken. */
  current(): FileSettings {
    return this.settings;
  }

  error(): SettingsFileError | null {
    return this.problem;
  }

  exists(): boolean {
    return this.present;
  }
}
