import fs from 'node:fs';
import type { ConversationMessage } from '../../../shared/conversation';
import type { NewTranscriptEntry } from './transcript-entry';

/** Opens a transcript for appending: a regular file only (a FIFO or device planted there is refused, never waited on). */
async function openForAppend(file: string): Promise<fs.promises.FileHandle> {
  const handle = await fs.promises.open(
    file,
    fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NONBLOCK ?? 0),
    0o600,
  );
  const st = await handle.stat();
  if (!st.isFile()) {
    await handle.close();
    throw new Error(`${file}: not a regular file; the transcript was not written`);
  }
  return handle;
}

/** True when the file's last byte is not a newline (a line cut by a crash): the next entry must start a fresh line. */
async function endsMidLine(file: string, size: number): Promise<boolean> {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  const reader = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    await reader.read(last, 0, 1, size - 1);
  } finally {
    await reader.close();
  }
  return last[0] !== 0x0a;
}

/**
 * Appends transcript lines to one session file (kept open, mode 0600), without blocking the thread: `append` queues
 * the line, and the queue writes in order with fs.promises. `flush()` resolves when every line so far is written and
 * fsynced (called at each turn's checkpoint and at the end of each run, so a crash loses at most the current turn's
 * events); it rejects with the first write that failed, so a lost line is never silent. A file whose last line was
 * cut (a crash mid-write) gets a newline first: the next entry is never glued onto the fragment.
 */
export class TranscriptWriter {
  private queue: Promise<void> = Promise.resolve();
  private failure: Error | null = null;
  private closed = false;
  private known: ConversationMessage[];

  private constructor(
    readonly file: string,
    private readonly handle: fs.promises.FileHandle,
    conversation: ConversationMessage[],
  ) {
    this.known = conversation;
  }

  static async open(file: string, conversation: ConversationMessage[] = []): Promise<TranscriptWriter> {
    const handle = await openForAppend(file);
    try {
      if (await endsMidLine(file, (await handle.stat()).size)) await handle.appendFile('\n');
    } catch (err) {
      await handle.close();
      throw err;
    }
    return new TranscriptWriter(file, handle, conversation);
  }

  append(entry: NewTranscriptEntry): void {
    if (this.closed) return;
    const line = entry.type === 'session' ? entry : { ...entry, at: new Date().toISOString() };
    this.enqueue(() => this.handle.appendFile(JSON.stringify(line) + '\n'));
  }

  /** Records the conversation as it is now: only what changed since the last record, then fsync (in the background). */
  recordConversation(runId: string, conversation: ConversationMessage[]): void {
    const start = commonPrefix(this.known, conversation);
    if (start === conversation.length && start === this.known.length) return;
    this.append({ type: 'messages', runId, start, messages: conversation.slice(start) });
    this.known = [...conversation];
    // A failure is kept and reported by the next awaited flush (the run's end).
    this.flush().catch(() => undefined);
  }

  get conversation(): ConversationMessage[] {
    return [...this.known];
  }

  /** Resolves when every line appended so far is on disk (fsync); rejects with the first write that failed. */
  async flush(): Promise<void> {
    if (!this.closed) this.enqueue(() => this.handle.sync());
    await this.queue;
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      await this.handle.close().catch(() => undefined);
    }
  }

  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(async () => {
      if (this.failure) return;
      try {
        await step();
      } catch (err) {
        this.failure = new Error(
          `${this.file}: the transcript could not be written (${err instanceof Error ? err.message : String(err)})`,
        );
      }
    });
  }
}

function commonPrefix(a: ConversationMessage[], b: ConversationMessage[]): number {
  let i = 0;
  while (i < a.length && i < b.length && JSON.stringify(a[i]) === JSON.stringify(b[i])) i++;
  return i;
}
