import { omittedNote } from './truncate';

/** Terminal escape sequences: CSI, OSC, charset selection and other two-byte escapes. */
// eslint-disable-next-line no-control-regex -- matching terminal control bytes is the point
const ANSI_PATTERN = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][\s\S]*?(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\-_=>]/g;
// eslint-disable-next-line no-control-regex -- idem
const CONTROL_PATTERN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * The model's copy of terminal output: escape sequences and control characters removed, CRLF made LF, and a line
 * redrawn with `\r` (progress bars) reduced to what was last drawn.
 */
export function cleanTerminalOutput(raw: string): string {
  const noAnsi = raw.replace(ANSI_PATTERN, '');
  return noAnsi
    .split('\n')
    .map((line) => {
      const trimmed = line.replace(/\r+$/, '');
      const lastCr = trimmed.lastIndexOf('\r');
      return (lastCr === -1 ? trimmed : trimmed.slice(lastCr + 1)).replace(CONTROL_PATTERN, '');
    })
    .join('\n');
}

/** Keeps the first and the last `half` characters of a stream, counting what falls in between. */
export class HeadTailCollector {
  private head = '';
  private tail = '';
  private dropped = 0;

  constructor(private readonly half: number) {}

  push(chunk: string): void {
    let rest = chunk;
    if (this.head.length < this.half) {
      const take = this.half - this.head.length;
      this.head += rest.slice(0, take);
      rest = rest.slice(take);
    }
    if (rest === '') return;
    this.tail += rest;
    if (this.tail.length > this.half) {
      this.dropped += this.tail.length - this.half;
      this.tail = this.tail.slice(-this.half);
    }
  }

  text(): string {
    return this.dropped === 0 ? this.head + this.tail : `${this.head}\n${omittedNote(this.dropped)}\n${this.tail}`;
  }
}
