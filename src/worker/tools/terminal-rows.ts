import type { IBuffer, IBufferCell, IBufferLine } from '@xterm/headless';
import { HIDDEN_CLOSE, HIDDEN_OPEN } from '../../shared/terminal-text';

/** One row of the rendered terminal as the model reads it: its characters, hidden runs marked. */
export interface RowText {
  text: string;
  /** The row continues the one before it (the line was wider than the terminal). */
  wrapped: boolean;
}

/** xterm's default 16 colours: the palette a terminal draws with when nothing overrides it. */
const BASE_16 = [
  0x2e3436, 0xcc0000, 0x4e9a06, 0xc4a000, 0x3465a4, 0x75507b, 0x06989a, 0xd3d7cf, 0x555753, 0xef2929, 0x8ae234,
  0xfce94f, 0x729fcf, 0xad7fa8, 0x34e2e2, 0xeeeeec,
];
const CUBE_LEVELS = [0, 95, 135, 175, 215, 255];

/** A 256-colour palette index as 0xRRGGBB. */
function paletteRgb(index: number): number {
  if (index < 16) return BASE_16[index] ?? 0;
  if (index < 232) {
    const i = index - 16;
    const level = (n: number): number => CUBE_LEVELS[n] ?? 0;
    return (level(Math.floor(i / 36)) << 16) | (level(Math.floor(i / 6) % 6) << 8) | level(i % 6);
  }
  const grey = 8 + (index - 232) * 10;
  return (grey << 16) | (grey << 8) | grey;
}

function luminance(rgb: number): number {
  const channel = (c: number): number => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((rgb >> 16) & 0xff) + 0.7152 * channel((rgb >> 8) & 0xff) + 0.0722 * channel(rgb & 0xff);
}

/** Below this contrast (WCAG ratio) text on its background cannot be read: drawn "in the background colour". */
const UNREADABLE_CONTRAST = 1.5;

/**
 * Whether a cell's text is drawn so that nobody sees it: concealed (SGR 8), or a foreground that is (nearly) its
 * background. A default colour depends on the viewer's theme, so only two set colours are compared.
 */
function invisibleCell(cell: IBufferCell): boolean {
  if (cell.isInvisible()) return true;
  if (cell.isFgDefault() || cell.isBgDefault()) return false;
  if (cell.isFgPalette() && cell.isBgPalette() && cell.getFgColor() === cell.getBgColor()) return true;
  const fg = cell.isFgRGB() ? cell.getFgColor() : paletteRgb(cell.getFgColor());
  const bg = cell.isBgRGB() ? cell.getBgColor() : paletteRgb(cell.getBgColor());
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a) as [number, number];
  return (hi + 0.05) / (lo + 0.05) < UNREADABLE_CONTRAST;
}

/**
 * The output's own white square brackets (the markers' characters) as plain ones: only Gatehouse writes the markers,
 * so a command cannot fake a hidden run, nor end one early, in the model's copy.
 */
const ownBrackets = (text: string): string => text.replace(/\u27E6/g, '[').replace(/\u27E7/g, ']');

/** Whether any cell of the row holds text drawn invisibly (most rows have none: they take the fast path). */
function hasHiddenText(line: IBufferLine, cols: number, cell: IBufferCell): boolean {
  for (let x = 0; x < cols; x++) {
    const c = line.getCell(x, cell);
    if (c && c.getWidth() > 0 && invisibleCell(c) && c.getChars().trim() !== '') return true;
  }
  return false;
}

/** The row cell by cell, each run of invisibly drawn text between HIDDEN_OPEN and HIDDEN_CLOSE. */
function markedRow(line: IBufferLine, cols: number, cell: IBufferCell): string {
  let out = '';
  let run = '';
  const closeRun = (): void => {
    const core = run.trim();
    if (core === '') out += run;
    else {
      const lead = run.slice(0, run.length - run.trimStart().length);
      const trail = run.slice(run.trimEnd().length);
      out += `${lead}${HIDDEN_OPEN}${core}${HIDDEN_CLOSE}${trail}`;
    }
    run = '';
  };
  for (let x = 0; x < cols; x++) {
    const c = line.getCell(x, cell);
    if (!c || c.getWidth() === 0) continue; // the second half of a wide character
    const chars = ownBrackets(c.getChars()) || ' ';
    if (invisibleCell(c)) run += chars;
    else {
      if (run !== '') closeRun();
      out += chars;
    }
  }
  if (run !== '') closeRun();
  return out;
}

/** Rows `from`..`to` (inclusive) of a buffer as text. */
export function readRows(buffer: IBuffer, cols: number, from: number, to: number): RowText[] {
  const cell = buffer.getNullCell();
  const rows: RowText[] = [];
  for (let y = from; y <= to; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    const text = hasHiddenText(line, cols, cell)
      ? markedRow(line, cols, cell)
      : ownBrackets(line.translateToString(false));
    rows.push({ text, wrapped: line.isWrapped });
  }
  return rows;
}

/** The last row of a buffer that holds any character (-1: none). */
export function lastContentRow(buffer: IBuffer): number {
  for (let y = buffer.length - 1; y >= 0; y--) if (buffer.getLine(y)?.translateToString(true) !== '') return y;
  return -1;
}

/**
 * Rows as lines of text: a wrapped row joins the one before it, a line loses its trailing blanks, and a hidden run
 * the wrap cut in two is marked once.
 */
export function rowsAsText(rows: readonly RowText[]): string {
  const lines: string[] = [];
  let current: string | null = null;
  for (const row of rows) {
    if (row.wrapped && current !== null) current += row.text;
    else {
      if (current !== null) lines.push(current);
      current = row.text;
    }
  }
  if (current !== null) lines.push(current);
  return lines
    .map((line) =>
      line
        .split(HIDDEN_CLOSE + HIDDEN_OPEN)
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

/** The characters a row adds to the text (its line break counted). */
export function rowChars(row: RowText): number {
  return row.text.trimEnd().length + 1;
}
