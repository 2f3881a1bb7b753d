import fsp from 'node:fs/promises';
import path from 'node:path';

export interface RotationOptions {
  /** A file that would grow past this is renamed to `<name>.1` first (older ones shift up). Default 5 MiB. */
  maxBytes?: number;
  /** Rotated files kept beside the current one. Default 3. */
  keep?: number;
  /** Told once when the file cannot be written (lines are then dropped). Default: one line on stderr. */
  onError?: (message: string) => void;
  /** After a failed write, how long lines are dropped before the file is tried again. Default 60 s. */
  retryMs?: number;
}

/**
 * An append-only log file written asynchronously (never a synchronous write on the main thread): lines are queued
 * and written in batches, in order; the file is rotated by size.
 *
 * Written here rather than taken from a logging library. electron-log's file transport (electron-log/main and /node
 * alike) writes each line with writeFileSync unless `sync: false`, and even then creates the file and folder with
 * mkdirSync/writeFileSync, reads its size with statSync and rotates with renameSync, which the main thread must not
 * do; it keeps one `main.old.log`. pino's rotating transport (pino-roll) writes from a worker thread, but names the
 * files `main.1.log`, `main.2.log`, … (there is no fixed `main.log`), lets a burst overrun the cap, and a failed write
 * (a full disk) ends the transport for good; so does rotating-file-stream's stream. Each would need this file's
 * error handling around it, and pino writes JSON where a person reads these files.
 *
 * A file that cannot be written (folder unwritable, disk full) never throws into the app: it is reported once, its
 * lines are dropped (and counted) and it is tried again after `retryMs`; the first line written after that says how
 * many were lost.
 */
export class RotatingLogFile {
  private pending: string[] = [];
  private scheduled = false;
  private tail: Promise<void> = Promise.resolve();
  private size: number | null = null;
  private brokenUntil = 0;
  private reported = false;
  private dropped = 0;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly retryMs: number;
  private readonly onError: (message: string) => void;

  constructor(
    readonly file: string,
    options: RotationOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.keep = Math.max(1, options.keep ?? 3);
    this.retryMs = options.retryMs ?? 60_000;
    this.onError = options.onError ?? ((message) => process.stderr.write(`gatehouse: ${message}\n`));
  }

  /** Queues text (whole lines, newline-terminated) for the file. Never throws, never blocks. */
  append(text: string): void {
    if (text === '') return;
    if (Date.now() < this.brokenUntil) {
      this.dropped += countLines(text);
      return;
    }
    this.pending.push(text);
    if (this.scheduled) return;
    this.scheduled = true;
    this.tail = this.tail.then(() => this.writeBatch());
  }

  /** Resolves once everything appended so far is on disk (or dropped after an error). */
  flush(): Promise<void> {
    return this.tail;
  }

  private async writeBatch(): Promise<void> {
    this.scheduled = false;
    let unwritten = this.pending.join('');
    this.pending = [];
    if (this.dropped > 0) {
      unwritten = `${new Date().toISOString()} warn  ${this.dropped} log line(s) were dropped while ${this.file} could not be written\n${unwritten}`;
    }
    try {
      if (this.size === null) this.size = await this.currentSize();
      // A batch can hold a burst many times the cap: it is cut at line ends, the file rotated between the parts.
      while (unwritten !== '') {
        const part = fitting(unwritten, this.maxBytes - this.size, this.size === 0);
        if (part === '') {
          await this.rotate();
          this.size = 0;
          continue;
        }
        await fsp.appendFile(this.file, part, { mode: 0o600 });
        this.size += Buffer.byteLength(part);
        unwritten = unwritten.slice(part.length);
        this.dropped = 0;
      }
    } catch (err) {
      this.size = null;
      // The note of earlier drops, when it is still unwritten, is not a line of its own to count.
      this.dropped += countLines(unwritten) - (this.dropped > 0 ? 1 : 0);
      this.brokenUntil = Date.now() + this.retryMs;
      if (!this.reported) {
        this.reported = true;
        const reason = err instanceof Error ? err.message : String(err);
        this.onError(
          `cannot write the log file ${this.file} (${reason}); its lines are dropped until it can be written`,
        );
      }
    }
  }

  private async currentSize(): Promise<number> {
    await fsp.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    try {
      return (await fsp.stat(this.file)).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
  }

  /** main.log -> main.log.1 -> main.log.2 ...; the oldest beyond `keep` is replaced. */
  private async rotate(): Promise<void> {
    for (let i = this.keep - 1; i >= 1; i--) {
      await fsp.rename(`${this.file}.${i}`, `${this.file}.${i + 1}`).catch(ignoreMissing);
    }
    await fsp.rename(this.file, `${this.file}.1`).catch(ignoreMissing);
  }
}

function ignoreMissing(err: unknown): void {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}

/**
 * The whole lines at the start of `text` that fit in `room` bytes; into an empty file at least one line, however long
 * (a line is never split).
 */
function fitting(text: string, room: number, empty: boolean): string {
  if (Buffer.byteLength(text) <= room) return text;
  let end = 0;
  let bytes = 0;
  while (end < text.length) {
    const nl = text.indexOf('\n', end);
    const next = nl === -1 ? text.length : nl + 1;
    bytes += Buffer.byteLength(text.slice(end, next));
    if (bytes > room && !(empty && end === 0)) break;
    end = next;
  }
  return text.slice(0, end);
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return Math.max(1, n);
}
