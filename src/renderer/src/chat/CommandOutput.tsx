import { lazy, Suspense, useMemo, useState } from 'react';
import { cleanTerminalOutput, countHiddenMarks, terminalTricks } from '../../../shared/terminal-text';
import { LongText } from '../display/LongText';
import { OutputMarksWarning } from '../display/MarkWarning';
import { Shown } from '../display/Shown';
import { summariseMarks } from '../../../shared/visible-text';
import type { ToolItem } from './chat-store';

// The terminal (xterm.js, a large part of the page's code) loads when the first command output shows, not at start.
const TerminalView = lazy(() => import('./TerminalView').then((m) => ({ default: m.TerminalView })));

/** Lines of output text shown before "Show all". */
const TEXT_LINES = 200;

type View = 'text' | 'terminal';

/** What the card shows of a command's output, before and after it finished. */
interface OutputViews {
  /** The text view: the model's tool result once the command finished; while it runs, the stream as plain text. */
  text: string;
  /** The terminal view's input: the rendered rows with colours once finished; while it runs, the raw stream. */
  terminal: string;
  /** Runs of text the terminal drew but nobody could see (marked ⟦hidden⟧ in the model's copy). */
  hidden: number;
  final: boolean;
}

function outputViews(output: string, result: ToolItem['result']): OutputViews {
  if (result?.ran)
    return {
      text: result.content,
      terminal: result.terminal ?? '',
      hidden: countHiddenMarks(result.content),
      final: true,
    };
  // Live, only concealment counts: the terminal view draws the stream as a terminal would, and so will the result.
  return { text: cleanTerminalOutput(output), terminal: output, hidden: terminalTricks(output).conceal, final: false };
}

/**
 * A command's output as the person must see it: what the model receives. Once the command ended both views show the
 * worker's rendering of it in a terminal (its screen and scroll-back: a spinner's last frame, not its frames): the
 * text view the model's tool result, the terminal view the same rows with their colours. While it runs the terminal
 * view draws the stream as it comes. Text drawn so that nobody sees it (concealed, foreground on its own background)
 * is the one thing a terminal shows differently from what the model reads: a warning says so and the text view,
 * where it is marked, is the default.
 */
export function CommandOutput({ item }: { item: ToolItem }) {
  const views = useMemo(() => outputViews(item.output, item.result), [item.output, item.result]);
  const marks = useMemo(() => summariseMarks(views.text), [views.text]);
  const canTerminal = views.terminal !== '';
  const [chosen, setChosen] = useState<View | null>(null);
  const view: View = canTerminal ? (chosen ?? (views.hidden === 0 && marks.count === 0 ? 'terminal' : 'text')) : 'text';
  return (
    <div className="command-output" data-view={view} data-flagged={views.hidden > 0 ? 'true' : undefined}>
      {views.hidden > 0 ? (
        <p className="mark-warning" data-testid="output-flag">
          <Shown
            text={`⚠ The output holds text a terminal draws invisibly (concealed, or in its background colour): ${views.hidden} run${views.hidden === 1 ? '' : 's'}, marked ⟦hidden⟧ in the text the model received. The terminal view draws it visibly.`}
          />
        </p>
      ) : marks.count > 0 ? (
        <OutputMarksWarning count={marks.count} />
      ) : null}
      {canTerminal ? (
        <div className="command-output-views" role="group" aria-label="Output view">
          <button
            type="button"
            className="diff-layout-button"
            aria-pressed={view === 'text'}
            onClick={() => setChosen('text')}
          >
            Text (what the model got)
          </button>
          <button
            type="button"
            className="diff-layout-button"
            aria-pressed={view === 'terminal'}
            onClick={() => setChosen('terminal')}
          >
            Terminal
          </button>
        </div>
      ) : null}
      {view === 'terminal' ? (
        <Suspense
          fallback={
            <pre className="command-output-text" data-testid="command-output-loading">
              <LongText text={views.text} maxLines={TEXT_LINES} />
            </pre>
          }
        >
          {/* A new terminal when the rendered output replaces the live stream. */}
          <TerminalView key={views.final ? 'final' : 'live'} text={views.terminal} />
        </Suspense>
      ) : (
        <pre className="command-output-text" data-testid="command-output-text">
          <LongText text={views.text} maxLines={TEXT_LINES} />
        </pre>
      )}
    </div>
  );
}
