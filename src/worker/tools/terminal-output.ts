/** Raw output streamed live to the card per command; the card gets the rendered whole when the command ends. */
export const LIVE_OUTPUT_MAX_CHARS = 1024 * 1024;

/** Said once in the live stream when it stops there. */
export const LIVE_OUTPUT_PAUSED =
  '\r\n\x1b[0m[live output stops here: over 1 MiB; the rendered output follows when the command ends]\r\n';

/**
 * The live stream of a command's output to the card (the terminal view draws it as it comes): the first
 * LIVE_OUTPUT_MAX_CHARS characters, then one line saying the rest comes with the result, so a command that prints
 * without end cannot fill the page's memory. A failing listener never breaks the command.
 */
export class LiveOutput {
  private sent = 0;
  private stopped = false;

  constructor(private readonly send: (chunk: string) => void) {}

  push(chunk: string): void {
    if (this.stopped || chunk === '') return;
    const room = LIVE_OUTPUT_MAX_CHARS - this.sent;
    if (chunk.length <= room) {
      this.sent += chunk.length;
      this.deliver(chunk);
      return;
    }
    this.stopped = true;
    // Cut before an escape sequence that would be left unfinished, so the note is drawn as text.
    let head = chunk.slice(0, room);
    const esc = head.lastIndexOf('\x1b');
    if (esc !== -1 && head.length - esc < 64) head = head.slice(0, esc);
    this.deliver(head + LIVE_OUTPUT_PAUSED);
  }

  private deliver(chunk: string): void {
    try {
      this.send(chunk);
    } catch {
      // a failing UI stream must not break the command
    }
  }
}
