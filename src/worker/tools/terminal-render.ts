import { SerializeAddon } from '@xterm/addon-serialize';
import { Terminal, type IMarker } from '@xterm/headless';
import { countHiddenMarks } from '../../shared/terminal-text';
import { lastContentRow, readRows, rowChars, rowsAsText, type RowText } from './terminal-rows';
import { omittedNote } from './truncate';

/**
 * A command's output as a terminal shows it when the command ends, for the model and the person alike: the stream
 * runs through a headless xterm (the emulator the app's terminal view uses), so a spinner is its last frame, a
 * progress bar its final state, and erased or overwritten text is gone for both. The result is the screen and its
 * scroll-back, cut to a budget (the first and the last rows kept, the rows between counted), as text for the model
 * (text drawn invisibly marked, see terminal-rows.ts) and as the same rows with their colours for the card.
 *
 * Bounded: the terminal keeps SCROLLBACK rows; the rows of the head are copied out before they could scroll away;
 * the stream is fed in small pieces from a queue that asks the command to pause (`onPressure`) while it is long,
 * and what is still queued when a deadline passes at the end is dropped and counted.
 */

/** Characters handed to the terminal at once: at most this many rows can scroll into the scroll-back per piece. */
const PIECE = 1024;
/** Pieces being parsed at once. */
const IN_FLIGHT = 4;
const SCROLLBACK = 2000;
/** Queued characters above which the command is asked to pause, and below which it resumes. */
const HIGH_WATER = 256 * 1024;
const LOW_WATER = 64 * 1024;
/** How long `finish` may spend on what is still queued before it renders what it has. */
const FINISH_BUDGET_MS = 2_000;

export interface RenderedOutput {
  /** The model's copy: the rendered rows as lines, text drawn invisibly marked, cut to the budget. */
  text: string;
  /** The same rows with their colours (ANSI), for the card's terminal view. */
  terminal: string;
  /** Runs of invisibly drawn text marked in `text`. */
  hidden: number;
}

interface HeadRows {
  rows: RowText[];
  terminal: string;
  /** The first row after the head, counted from the first row of the output. */
  end: number;
}

export interface TerminalRendererOptions {
  cols: number;
  rows: number;
  /** The most characters `text` may have. */
  maxChars: number;
  /** Called with true when the command should pause its output, false when it may go on. */
  onPressure?: (pause: boolean) => void;
}

export class TerminalRenderer {
  private readonly term: Terminal;
  private readonly serializer = new SerializeAddon();
  private readonly queue: string[] = [];
  private queued = 0;
  private inFlight = 0;
  private paused = false;
  private dropped = 0;
  private idle: (() => void) | null = null;
  /** Rows scrolled out of the terminal's scroll-back so far (tracked once the head is copied out). */
  private trimmed = 0;
  private anchor: { marker: IMarker; line: number } | null = null;
  private head: HeadRows | null = null;
  /** The command cleared the scroll-back or reset the terminal: what was there is gone for everyone. */
  private erased = false;

  constructor(private readonly opts: TerminalRendererOptions) {
    this.term = new Terminal({
      cols: opts.cols,
      rows: opts.rows,
      scrollback: SCROLLBACK,
      allowProposedApi: true,
      logLevel: 'off',
    });
    this.term.loadAddon(this.serializer as unknown as Parameters<Terminal['loadAddon']>[0]);
    this.term.parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (params.includes(3)) this.erased = true;
      return false;
    });
    this.term.parser.registerEscHandler({ final: 'c' }, () => {
      this.erased = true;
      return false;
    });
    // xterm repeats these once per unit of their count, which a command may set to 2^31: a count past the size of
    // the screen (where the effect stops growing) is not carried out.
    const { cols, rows } = opts;
    for (const [final, most] of [
      ['S', rows],
      ['T', rows],
      ['L', rows],
      ['M', rows],
      ['I', cols],
      ['Z', cols],
      ['b', cols * rows],
    ] as const) {
      this.term.parser.registerCsiHandler({ final }, (params) => countOf(params) > most);
    }
  }

  /** Characters of output queued, not yet parsed by the terminal. */
  get waiting(): number {
    return this.queued;
  }

  /** Queues output for the terminal. */
  write(data: string): void {
    if (data === '') return;
    for (let i = 0; i < data.length; i += PIECE) this.queue.push(data.slice(i, i + PIECE));
    this.queued += data.length;
    if (!this.paused && this.queued > HIGH_WATER) this.setPaused(true);
    this.pump();
  }

  /** Renders what the terminal shows once everything queued is parsed (or FINISH_BUDGET_MS passed). */
  async finish(): Promise<RenderedOutput> {
    const deadline = setTimeout(() => this.dropQueue(), FINISH_BUDGET_MS);
    try {
      await new Promise<void>((resolve) => {
        this.idle = resolve;
        this.pump();
      });
    } finally {
      clearTimeout(deadline);
    }
    return this.render();
  }

  dispose(): void {
    this.anchor?.marker.dispose();
    this.term.dispose();
  }

  private setPaused(pause: boolean): void {
    this.paused = pause;
    try {
      this.opts.onPressure?.(pause);
    } catch {
      // the command may have ended meanwhile
    }
  }

  private pump(): void {
    while (this.inFlight < IN_FLIGHT && this.queue.length > 0) {
      const piece = this.queue.shift() ?? '';
      this.inFlight++;
      this.term.write(piece, () => this.parsed(piece.length));
    }
    if (this.inFlight === 0 && this.queue.length === 0 && this.idle) {
      const idle = this.idle;
      this.idle = null;
      idle();
    }
  }

  private parsed(length: number): void {
    this.inFlight--;
    this.queued -= length;
    this.track();
    if (this.paused && this.queued < LOW_WATER) this.setPaused(false);
    this.pump();
  }

  private dropQueue(): void {
    for (const piece of this.queue) this.dropped += piece.length;
    this.queued -= this.dropped;
    this.queue.length = 0;
  }

  /**
   * After each piece: counts the rows that left the scroll-back (a marker on its last row moves up by as many), and
   * copies the head out while it is still there (before the buffer is full nothing has left it).
   */
  private track(): void {
    if (this.erased) {
      this.erased = false;
      this.head = null;
      this.trimmed = 0;
      this.anchor?.marker.dispose();
      this.anchor = null;
    }
    const normal = this.term.buffer.normal;
    if (this.anchor) {
      this.trimmed += this.anchor.line - this.anchor.marker.line;
      this.anchor.marker.dispose();
      this.anchor = null;
    }
    if (this.head === null && normal.length >= SCROLLBACK + this.opts.rows - PIECE) this.head = this.copyHead();
    if (this.head !== null && normal.baseY > 0 && this.term.buffer.active.type === 'normal') {
      const line = normal.baseY - 1;
      const marker = this.term.registerMarker(line - (normal.baseY + normal.cursorY));
      if (marker) this.anchor = { marker, line };
    }
  }

  /** The first rows of the scroll-back, up to half the budget: they stay in the model's copy whatever follows. */
  private copyHead(): HeadRows {
    const normal = this.term.buffer.normal;
    const budget = Math.floor(this.opts.maxChars / 2);
    const rows: RowText[] = [];
    let chars = 0;
    for (let y = 0; y < normal.baseY; y++) {
      const [row] = readRows(normal, this.opts.cols, y, y);
      if (!row || (chars += rowChars(row)) > budget) break;
      rows.push(row);
    }
    return { rows, terminal: rows.length > 0 ? this.serializeRows(0, rows.length - 1) : '', end: rows.length };
  }

  private serializeRows(start: number, end: number): string {
    return this.serializer.serialize({ range: { start, end }, excludeModes: true, excludeAltBuffer: true });
  }

  private render(): RenderedOutput {
    const normal = this.term.buffer.normal;
    const { cols, maxChars } = this.opts;
    const last = lastContentRow(normal);
    const first = this.head ? Math.max(0, this.head.end - this.trimmed) : 0;
    const gap = this.head ? Math.max(0, this.trimmed - this.head.end) : 0;
    const body = last >= first ? readRows(normal, cols, first, last) : [];
    const headRows = this.head?.rows ?? [];
    const headChars = headRows.reduce((n, r) => n + rowChars(r), 0);
    // Without a copied head the body's first rows are the head; either way the tail gets the rest of the budget.
    const total = headChars + body.reduce((n, r) => n + rowChars(r), 0);
    let headCount = 0;
    if (!this.head && total > maxChars) headCount = fitFromStart(body, Math.floor(maxChars / 2));
    const usedByHead = this.head ? headChars : body.slice(0, headCount).reduce((n, r) => n + rowChars(r), 0);
    const tailStart =
      gap === 0 && total <= maxChars ? headCount : fitFromEnd(body, headCount, maxChars - usedByHead - 80);
    const omitted = gap + (tailStart - headCount);

    const segments: Segment[] = [];
    if (this.head) segments.push({ rows: headRows, view: this.head.terminal });
    else if (headCount > 0)
      segments.push({ rows: body.slice(0, headCount), view: this.serializeRows(first, first + headCount - 1) });
    if (omitted > 0) segments.push(noteSegment(omittedNote(omitted, omitted === 1 ? 'line' : 'lines')));
    if (tailStart < body.length)
      segments.push({ rows: body.slice(tailStart), view: this.serializeRows(first + tailStart, last) });
    segments.push(...this.alternateScreen());
    if (this.dropped > 0)
      segments.push(
        noteSegment(`[... ${this.dropped.toLocaleString('en-US')} characters of output were not rendered in time ...]`),
      );
    return joinSegments(segments);
  }

  /** A full-screen program still showing when the command ended: its screen, after the normal buffer's lines. */
  private alternateScreen(): Segment[] {
    const alt = this.term.buffer.alternate;
    if (this.term.buffer.active.type !== 'alternate') return [];
    const last = lastContentRow(alt);
    if (last < 0) return [];
    const rows = readRows(alt, this.opts.cols, 0, last);
    return [
      noteSegment('[the full-screen display when the command ended:]'),
      { rows, view: rowsAsText(rows).replace(/\n/g, '\r\n') },
    ];
  }
}

/** Rows of the rendering with their view (ANSI); a note of ours is a row of its own. */
interface Segment {
  rows: RowText[];
  view: string;
  note?: true;
}

function noteSegment(text: string): Segment {
  return { rows: [{ text, wrapped: false }], view: `\x1b[2m${text}\x1b[22m`, note: true };
}

/**
 * The segments as one text and one view. A row that continues a line (wrapped) goes on that line only when the
 * segment before it holds the line's start; after a note, or at the start, it begins a line of its own.
 */
function joinSegments(segments: readonly Segment[]): RenderedOutput {
  const rows: RowText[] = [];
  let view = '';
  let previous: Segment | null = null;
  for (const segment of segments) {
    const [head, ...rest] = segment.rows;
    if (!head) continue;
    const joins = previous !== null && !previous.note && !segment.note && head.wrapped;
    rows.push(joins ? head : { ...head, wrapped: false }, ...rest);
    view += previous === null ? segment.view : `${joins ? '' : '\r\n'}${segment.view}`;
    previous = segment;
  }
  const text = rowsAsText(rows);
  return { text, terminal: view, hidden: countHiddenMarks(text) };
}

/** A sequence's count: its first parameter. */
function countOf(params: (number | number[])[]): number {
  const first = params[0];
  return Array.isArray(first) ? (first[0] ?? 0) : (first ?? 0);
}

/** How many rows from the start fit in `budget` characters. */
function fitFromStart(rows: readonly RowText[], budget: number): number {
  let chars = 0;
  let n = 0;
  for (; n < rows.length; n++) {
    chars += rowChars(rows[n] as RowText);
    if (chars > budget) break;
  }
  return n;
}

/** The first row of the longest tail (not before `floor`) that fits in `budget` characters. */
function fitFromEnd(rows: readonly RowText[], floor: number, budget: number): number {
  let chars = 0;
  let start = rows.length;
  while (start > floor) {
    chars += rowChars(rows[start - 1] as RowText);
    if (chars > budget) break;
    start--;
  }
  return start;
}
