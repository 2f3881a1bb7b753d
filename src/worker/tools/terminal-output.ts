import { omittedNote } from './truncate';

// The model's copy of terminal output is built in src/shared, so the renderer shows the person the same text.
export { cleanTerminalOutput } from '../../shared/terminal-text';

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
