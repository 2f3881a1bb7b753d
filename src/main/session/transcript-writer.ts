import fs from 'node:fs';
import type { ConversationMessage } from '../../shared/conversation';
import type { NewTranscriptEntry } from './transcript-entry';

/**
 * Appends transcript lines to one session file (kept open, mode 0600). `flush()` fsyncs: called at each turn's
 * checkpoint and at the end of each run, so a crash loses at most the current turn's events.
 */
export class TranscriptWriter {
  private fd: number | null;
  private known: ConversationMessage[];

  constructor(
    readonly file: string,
    conversation: ConversationMessage[] = [],
  ) {
    this.fd = fs.openSync(file, 'a', 0o600);
    this.known = conversation;
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
