export interface LineSplitterOptions {
  /** A line longer than this is not kept: `onTooLong` is called once and the line is dropped up to its newline. */
  maxChars?: number;
  onTooLong?: () => void;
}

/**
 * Cuts a stream of text into lines at LF (a CR stays in its line), scanning each chunk once. Joining every chunk into
 * one string and searching it again from its start for each new chunk made a long line cost the square of its length,
 * and the process did nothing else meanwhile.
 */
export class LineSplitter {
  private parts: string[] = [];
  private length = 0;
  /** Inside an over-long line: everything up to the next newline is dropped. */
  private discarding = false;
  private readonly maxChars: number;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly options: LineSplitterOptions = {},
  ) {
    this.maxChars = options.maxChars ?? Number.POSITIVE_INFINITY;
  }

  /** Feeds a chunk; each line it completes goes to `onLine`, in order. */
  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', start);
      if (nl === -1) {
        this.keep(chunk.slice(start));
        return;
      }
      const piece = chunk.slice(start, nl);
      start = nl + 1;
      if (this.discarding) {
        this.discarding = false;
        continue;
      }
      if (this.length + piece.length > this.maxChars) {
        this.clear();
        this.options.onTooLong?.();
        continue;
      }
      const line = this.length === 0 ? piece : this.parts.join('') + piece;
      this.clear();
      this.onLine(line);
    }
  }

  /** The input ended: the unterminated rest ('' when none, or when it was an over-long line being dropped). */
  end(): string {
    const rest = this.discarding ? '' : this.parts.join('');
    this.clear();
    this.discarding = false;
    return rest;
  }

  private keep(rest: string): void {
    if (this.discarding || rest === '') return;
    this.parts.push(rest);
    this.length += rest.length;
    if (this.length > this.maxChars) {
      this.clear();
      this.discarding = true;
      this.options.onTooLong?.();
    }
  }

  private clear(): void {
    this.parts = [];
    this.length = 0;
  }
}
