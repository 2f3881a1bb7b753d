/**
 * Terminal output as text. A command's output reaches the model and the person as the worker's headless terminal
 * rendered it (src/worker/tools/terminal-render.ts); this file holds what both sides share: the markers of text the
 * terminal drew but nobody could see, and what the card's terminal view may interpret (`terminalSafeText`).
 * `cleanTerminalOutput` is the plain-text fallback (a running command's live text view, MCP results), and
 * `terminalTricks` counts the sequences of a raw stream (the live view warns of concealed text with it). Pure
 * TypeScript: no DOM, no Node.
 */

/* eslint-disable no-control-regex -- matching terminal control bytes is the point of this file */

/** Terminal escape sequences: CSI, OSC, charset selection and other two-byte escapes. */
const ANSI_PATTERN = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][\s\S]*?(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\-_=>]/g;
const CONTROL_PATTERN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * Terminal output as plain text, without a terminal: escape sequences and control characters removed, CRLF made LF,
 * and a line redrawn with `\r` (progress bars) reduced to what was last drawn.
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

type TerminalTrick = 'conceal' | 'cursor' | 'erase' | 'overwrite' | 'link' | 'other';

export type TerminalTricks = Record<TerminalTrick, number> & { total: number };

const SEQUENCE =
  /\x1b\[([0-?]*)([ -/]*)([@-~])|\x9b([0-?]*)([ -/]*)([@-~])|(?:\x1b\]|\x9d)([\s\S]*?)(?:\x07|\x1b\\|\x9c|$)|(?:\x1b[P_^X]|[\x90\x9e\x9f\x98])[\s\S]*?(?:\x1b\\|\x9c|$)|\x1b([\s\S])|\r(?!\n)|\x08|[\x80-\x9f]/g;
const CURSOR_FINALS = new Set([...'ABCDEFGHIZadefrsuST`']);
const ERASE_FINALS = new Set([...'JKXP@LM']);
const ALT_SCREEN = new Set(['47', '1047', '1049']);

/** Whether an SGR parameter list turns on concealed text (8), skipping the arguments of extended colours. */
function sgrConceals(params: string): boolean {
  const list = params.split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)));
  for (let i = 0; i < list.length; i++) {
    const p = list[i];
    if (p === 38 || p === 48 || p === 58) {
      i += list[i + 1] === 5 ? 2 : list[i + 1] === 2 ? 4 : 1;
      continue;
    }
    if (p === 8) return true;
  }
  return false;
}

function classifyCsi(params: string, final: string): TerminalTrick | null {
  if (final === 'm') return sgrConceals(params) ? 'conceal' : null;
  if (CURSOR_FINALS.has(final)) return 'cursor';
  if (ERASE_FINALS.has(final)) return 'erase';
  if (
    (final === 'h' || final === 'l') &&
    params.startsWith('?') &&
    params
      .slice(1)
      .split(';')
      .some((p) => ALT_SCREEN.has(p))
  )
    return 'erase';
  return null;
}

/**
 * What in `raw` would make a terminal show something other than the text the model receives. Colours and other
 * styles are not counted (the terminal view keeps text readable whatever the colours).
 */
export function terminalTricks(raw: string): TerminalTricks {
  const counts: TerminalTricks = { conceal: 0, cursor: 0, erase: 0, overwrite: 0, link: 0, other: 0, total: 0 };
  if (!/[\x1b\r\x08\x80-\x9f]/.test(raw)) return counts;
  for (const m of raw.matchAll(SEQUENCE)) {
    const [whole, params, , final, c1Params, , c1Final, osc, esc] = m;
    let trick: TerminalTrick | null;
    if (final !== undefined) trick = classifyCsi(params ?? '', final);
    else if (c1Final !== undefined) trick = classifyCsi(c1Params ?? '', c1Final);
    else if (osc !== undefined) trick = /^8;[^;]*;./s.test(osc) ? 'link' : 'other';
    else if (esc !== undefined)
      trick = '78DEMc'.includes(esc)
        ? esc === 'c'
          ? 'erase'
          : 'cursor'
        : '()'.includes(esc) || esc === '=' || esc === '>'
          ? null
          : 'other';
    else if (whole === '\r' || whole === '\x08') trick = 'overwrite';
    else trick = 'other';
    if (trick) {
      counts[trick]++;
      counts.total++;
    }
  }
  return counts;
}

/** OSC, DCS, APC, PM and SOS strings and 8-bit C1 controls (links, titles, palette changes: nothing a view needs). */
const STRINGS_AND_C1 =
  /(?:\x1b\]|\x9d)[\s\S]*?(?:\x07|\x1b\\|\x9c)|(?:\x1b[P_^X]|[\x90\x9e\x9f\x98])[\s\S]*?(?:\x1b\\|\x9c)|[\x80-\x9f]/g;
/** An escape string or sequence that has begun but not ended yet (more output may complete it). */
const UNFINISHED = /(?:\x1b\]|\x9d|\x1b[P_^X]|[\x90\x9e\x9f\x98])(?:(?!\x07|\x1b\\|\x9c)[\s\S])*$|\x1b\[?[0-?]*[ -/]*$/;

/**
 * The part of a raw stream a terminal view may interpret: OSC / DCS / APC / PM / SOS strings (hyperlinks, window
 * titles, palette changes) and C1 controls removed, and concealed text (SGR 8) shown. An unfinished escape at the end
 * is held back (`pending` is its length) until more output completes it, so a link split across chunks is never
 * half-written to the terminal.
 */
export function terminalSafeText(raw: string): { text: string; pending: number } {
  const tail = UNFINISHED.exec(raw);
  const complete = tail ? raw.slice(0, tail.index) : raw;
  return {
    text: revealConcealed(complete.replace(STRINGS_AND_C1, '')),
    pending: tail ? raw.length - tail.index : 0,
  };
}

/** Around text the terminal drew that a person could not see (concealed, or in its background colour). */
export const HIDDEN_OPEN = '\u27E6hidden\u27E7';
export const HIDDEN_CLOSE = '\u27E6/hidden\u27E7';

/** How many runs of hidden text a rendered output marks. */
export function countHiddenMarks(text: string): number {
  let count = 0;
  for (let at = text.indexOf(HIDDEN_OPEN); at !== -1; at = text.indexOf(HIDDEN_OPEN, at + HIDDEN_OPEN.length)) count++;
  return count;
}

/** An SGR parameter list without "conceal" (8), the arguments of extended colours kept; '' when nothing is left. */
function withoutConceal(params: string): string {
  const list = params.split(';');
  const kept: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const p = list[i] ?? '';
    if (p === '38' || p === '48' || p === '58') {
      const skip = list[i + 1] === '5' ? 2 : list[i + 1] === '2' ? 4 : 0;
      kept.push(...list.slice(i, i + 1 + skip));
      i += skip;
      continue;
    }
    if (p !== '8') kept.push(p);
  }
  return kept.length === 0 ? '' : `\x1b[${kept.join(';')}m`;
}

/** SGR sequences with "conceal" removed: concealed text is drawn like the text around it. */
function revealConcealed(text: string): string {
  return text.replace(/\x1b\[([0-9;:]*)m/g, (whole, params: string) =>
    params.split(';').includes('8') ? withoutConceal(params) : whole,
  );
}
