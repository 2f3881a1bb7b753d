import fs from 'node:fs';
import type { ConversationMessage } from '../../shared/conversation';
import type { NewTranscriptEntry } from './transcript-entry';

/** Opens a transcript for appending: a regular file only (a FIFO or device planted there is refused, never waited on). */
function openForAppend(file: string): number {
  const fd = fs.openSync(
    file,
    fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NONBLOCK ?? 0),
    0o600,
  );
  const st = fs.fstatSync(fd);
  if (!st.isFile()) {
    fs.closeSync(fd);
    throw new Error(`${file}: not a regular file; the transcript was not written`);
  }
  return fd;
}

/** True when the file's last byte is not a newline (a line cut by a crash): the next entry must start a fresh line. */
function endsMidLine(file: string, fd: number): boolean {
  const size = fs.fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  const readFd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    fs.readSync(readFd, last, 0, 1, size - 1);
  } finally {
    fs.closeSync(readFd);
  }
  return last[0] !== 0x0a;
}

/**
 * Appends transcript lines to one session file (kept open, mode 0600). `flush()` fsyncs: called at each turn's
 * checkpoint and at the end of each run, so a crash loses at most the current turn's events. A file whose last line
 * was cut (a crash mid-write) gets a newline first: the next entry is never glued onto the fragment.
 */
export class TranscriptWriter {
  private fd: number | null;
  private known: ConversationMessage[];

  constructor(
    readonly file: string,
    conversation: ConversationMessage[] = [],
  ) {
    this.fd = openForAppend(file);
    this.known = conversation;
    if (endsMidLine(file, this.fd)) fs.writeSync(this.fd, '\n');
  }

  append(entry: NewTranscriptEntry): void {
    if (this.fd === null) return;
    const line = entry.type === 'session' ? entry : { ...entry, at: new Date().toISOString() };
    fs.writeSync(this.fd, JSON.stringify(line) + '\n');
  }

  /** Records the conversation as it is now: only what changed since the last record, then fsync. */
  recordConversation(runId: string, conversation: ConversationMessage[]): void {
    const start = commonPrefix(this.known, conversation);
    if (start === conversation.length && start === this.known.length) return;
    this.append({ type: 'messages', runId, start, messages: conversation.slice(start) });
    this.known = [...conversation];
    this.flush();
  }

  get conversation(): ConversationMessage[] {
    return [...this.known];
  }

  flush(): void {
    if (this.fd !== null) fs.fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd === null) return;
    this.flush();
    fs.closeSync(this.fd);
    this.fd = null;
  }
}

function commonPrefix(a: ConversationMessage[], b: ConversationMessage[]): number {
  let i = 0;
  while (i < a.length && i < b.length && JSON.stringify(a[i]) === JSON.stringify(b[i])) i++;
  return i;
}
