import path from 'node:path';
import { redactText } from '../permission/redact';
import { RotatingLogFile, type RotationOptions } from './rotating-file';

export type LogLevel = 'error' | 'warn' | 'info';
export type LogName = 'main' | 'worker';

const MAX_PARTIAL = 64 * 1024;

/** `<user config dir>/logs`: where main.log and worker.log are. */
function logsDir(configDir: string): string {
  return path.join(configDir, 'logs');
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}

/** A child process's output as it comes (any chunking), written line by line; `end` writes a last unfinished line. */
export interface OutputSink {
  write(chunk: string): void;
  end(): void;
}

/** A message longer than this is cut (a runaway dump must not fill the log or stall the thread redacting it). */
const MAX_MESSAGE = 64 * 1024;
/** How much is redacted before the cut: a secret across the cut is still found whole. */
const REDACT_SPAN = MAX_MESSAGE + 1024;

function redactClipped(text: string): string {
  if (text.length <= MAX_MESSAGE) return redactText(text);
  const redacted = redactText(text.slice(0, REDACT_SPAN));
  return `${redacted.slice(0, MAX_MESSAGE)}… (${text.length - MAX_MESSAGE} more characters)`;
}

/**
 * One log file of the app: every line stamped with the time and redacted with the audit log's redaction (a crash
 * dump or an error message can hold a key) before it reaches the disk.
 */
export class Logger {
  constructor(private readonly file: RotatingLogFile) {}

  get path(): string {
    return this.file.file;
  }

  error(message: string, err?: unknown): void {
    this.write('error', err === undefined ? message : `${message}: ${describe(err)}`);
  }

  warn(message: string, err?: unknown): void {
    this.write('warn', err === undefined ? message : `${message}: ${describe(err)}`);
  }

  info(message: string): void {
    this.write('info', message);
  }

  /**
   * A sink for one child process's output, its lines prefixed with `source`: whole lines are logged as they
   * complete, the rest waits for its newline (or `end`), so a line cut by one process's death is never glued to
   * another's. A line that never ends is logged in pieces rather than held without bound.
   */
  outputSink(source: string): OutputSink {
    let partial = '';
    const emit = (text: string): void => {
      const stamp = new Date().toISOString();
      const lines = redactClipped(text).split('\n');
      this.file.append(lines.map((line) => `${stamp} ${source} ${line}\n`).join(''));
    };
    return {
      write: (chunk) => {
        const text = partial + chunk;
        const cut = text.length > MAX_PARTIAL ? text.length : text.lastIndexOf('\n');
        if (cut === -1) {
          partial = text;
          return;
        }
        partial = text.slice(cut + 1);
        emit(text.slice(0, cut));
      },
      end: () => {
        if (partial !== '') emit(partial);
        partial = '';
      },
    };
  }

  flush(): Promise<void> {
    return this.file.flush();
  }

  private write(level: LogLevel, message: string): void {
    const stamp = new Date().toISOString();
    const lines = redactClipped(message).split('\n');
    this.file.append(lines.map((line, i) => `${stamp} ${i === 0 ? level.padEnd(5) : '     '} ${line}\n`).join(''));
  }
}

const open = new Map<string, Logger>();

/** The log `name` of the config dir (one writer per file in this process, whoever asks). */
export function openLog(configDir: string, name: LogName, options?: RotationOptions): Logger {
  const file = path.join(logsDir(path.resolve(configDir)), `${name}.log`);
  let log = open.get(file);
  if (log === undefined) {
    log = new Logger(new RotatingLogFile(file, options));
    open.set(file, log);
  }
  return log;
}

/** Waits until every line logged so far in this process is on disk (e.g. before a one-shot command exits). */
export async function flushLogs(): Promise<void> {
  await Promise.all([...open.values()].map((log) => log.flush()));
}
