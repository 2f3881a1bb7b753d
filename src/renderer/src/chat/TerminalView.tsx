import { useEffect, useRef } from 'react';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { terminalSafeText } from '../../../shared/terminal-text';
import { askToOpen } from '../display/ExternalLink';
import { terminalTheme, watchTheme } from './terminal-theme';
import './code-theme.css';
import './terminal.css';

const MAX_ROWS = 18;
const FONT_FAMILY = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace";
const FONT_SIZE = 13;
const SCROLLBACK = 10_000;
/** Terminals not yet disposed: a write that finishes after its view unmounted must not touch a disposed one. */
const live = new WeakSet<Terminal>();

function cellWidth(): number {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return FONT_SIZE * 0.6;
  ctx.font = `${FONT_SIZE}px ${FONT_FAMILY}`;
  return ctx.measureText('W'.repeat(20)).width / 20 || FONT_SIZE * 0.6;
}

/** Columns that fit the host's width (a little is kept for the scrollbar). */
function fitColumns(host: HTMLElement, charWidth: number): number {
  return Math.max(20, Math.floor((host.clientWidth - 24) / charWidth));
}

/** Lines the output uses so far (the empty line after a final newline is not one). */
function usedLines(term: Terminal): number {
  const buffer = term.buffer.active;
  return Math.max(1, buffer.baseY + buffer.cursorY + (buffer.cursorX > 0 ? 1 : 0));
}

/** The terminal grows to its content up to MAX_ROWS, then scrolls, showing the newest line (not the cursor's). */
function fitRows(term: Terminal): void {
  const used = usedLines(term);
  const rows = Math.min(MAX_ROWS, used);
  if (rows !== term.rows) term.resize(term.cols, rows);
  term.scrollToLine(Math.max(0, used - rows));
}

/** Scrolling keys work in the read-only terminal; every other key is left to the page (Tab moves on). */
function scrollKey(term: Terminal, event: KeyboardEvent): boolean {
  if (event.type !== 'keydown') return false;
  const actions: Record<string, () => void> = {
    PageUp: () => term.scrollPages(-1),
    PageDown: () => term.scrollPages(1),
    ArrowUp: () => term.scrollLines(-1),
    ArrowDown: () => term.scrollLines(1),
    Home: () => term.scrollToTop(),
    End: () => term.scrollToBottom(),
  };
  const action = actions[event.key];
  if (action && !event.altKey && !event.ctrlKey && !event.metaKey) {
    action();
    event.preventDefault();
  }
  return false;
}

/** Text stays readable whatever colours the output sets (the same foreground and background cannot hide it). */
const MINIMUM_CONTRAST = 4.5;

/**
 * Command output in a read-only xterm: ANSI colours (kept readable: MINIMUM_CONTRAST), sized to its content up to
 * MAX_ROWS, with scrollback. OSC strings (hyperlinks, titles, palette changes) never reach it (terminalSafeText);
 * a link the terminal still found only asks to open, showing its target.
 * `text` only grows while a command streams; new text is written incrementally. A remounted view (a virtualised
 * list) writes its text once. Give it a new `key` when the text is replaced rather than extended.
 */
export function TerminalView({ text }: { text: string }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  /** How much of `text` has been handed to the terminal (a held-back unfinished escape is not). */
  const writtenRef = useRef(0);
  const textRef = useRef(text);
  textRef.current = text;

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const charWidth = cellWidth();
    const initialRows = Math.min(MAX_ROWS, Math.max(1, textRef.current.replace(/\n$/, '').split('\n').length));
    const term = new Terminal({
      cols: fitColumns(host, charWidth),
      rows: initialRows,
      disableStdin: true,
      convertEol: true,
      cursorBlink: false,
      cursorInactiveStyle: 'none',
      scrollback: SCROLLBACK,
      fontFamily: FONT_FAMILY,
      fontSize: FONT_SIZE,
      theme: terminalTheme(host),
      minimumContrastRatio: MINIMUM_CONTRAST,
      linkHandler: { activate: (_event, uri) => askToOpen(uri), allowNonHttpProtocols: false },
    });
    term.attachCustomKeyEventHandler((event) => scrollKey(term, event));
    term.open(host);
    // Its helper textarea takes focus (to scroll and copy) but nothing typed there goes anywhere.
    term.textarea?.setAttribute('aria-label', 'Command output (read-only)');
    term.textarea?.setAttribute('aria-readonly', 'true');
    term.write('\x1b[?25l'); // no cursor: nothing is typed here
    termRef.current = term;
    live.add(term);
    writtenRef.current = 0;
    write(term, textRef.current, writtenRef);

    const resize = new ResizeObserver(() => {
      const cols = fitColumns(host, charWidth);
      if (cols === term.cols) return;
      term.resize(cols, term.rows);
      fitRows(term);
    });
    resize.observe(host);
    const unwatch = watchTheme(() => (term.options.theme = terminalTheme(host)));
    return () => {
      unwatch();
      resize.disconnect();
      termRef.current = null;
      live.delete(term);
      term.dispose();
    };
  }, []);

  useEffect(() => {
    const term = termRef.current;
    if (term) write(term, text, writtenRef);
  }, [text]);

  return (
    <div
      ref={hostRef}
      className="terminal-view"
      role="region"
      aria-label="Command output"
      data-testid="terminal-view"
    />
  );
}

/**
 * Writes what `term` has not got yet (or everything again, after the text shrank), then fits the rows. A final
 * newline is held back until more text follows, so the terminal does not end on an empty line; so is an unfinished
 * escape sequence, until the output completes it (then OSC strings are dropped whole).
 */
function write(term: Terminal, full: string, written: { current: number }): void {
  const text = full.replace(/\r?\n$/, '');
  if (text.length < written.current) {
    term.reset();
    term.write('\x1b[?25l');
    written.current = 0;
  }
  const fresh = text.slice(written.current);
  const { text: chunk, pending } = terminalSafeText(fresh);
  written.current = text.length - pending;
  if (chunk === '') return;
  term.write(chunk, () => {
    if (live.has(term)) fitRows(term);
  });
}
