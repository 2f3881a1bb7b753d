import { lazy, Suspense, useMemo, useState } from 'react';
import { cleanTerminalOutput, describeTricks, terminalTricks } from '../../../shared/terminal-text';
import { LongText, OutputMarksWarning, Shown, summariseMarks } from '../display';
import type { ToolItem } from './chat-store';

// The terminal (xterm.js, a third of the page's code) loads when the first command output shows, not at start.
const TerminalView = lazy(() => import('./TerminalView').then((m) => ({ default: m.TerminalView })));

/** Lines of output text shown before "Show all". */
const TEXT_LINES = 200;

type View = 'text' | 'terminal';

/**
 * A command's output as the person must see it: the text the model receives (its tool result once the command
 * finished; while it runs, the stream cleaned the same way). The terminal view (colours) is the default only when
 * the stream used no sequence that hides, erases or overwrites text and the text needs no marker; otherwise the text
 * view is, and a warning says what the stream did.
 */
export function CommandOutput({ item }: { item: ToolItem }) {
  const raw = item.output;
  const modelText = item.result?.ran ? item.result.content : cleanTerminalOutput(raw);
  const tricks = useMemo(() => terminalTricks(raw), [raw]);
  const marks = useMemo(() => summariseMarks(modelText), [modelText]);
  const canTerminal = raw !== '';
  const [chosen, setChosen] = useState<View | null>(null);
  const view: View = canTerminal ? (chosen ?? (tricks.total === 0 && marks.count === 0 ? 'terminal' : 'text')) : 'text';
  return (
    <div className="command-output" data-view={view} data-flagged={tricks.total > 0 ? 'true' : undefined}>
      {tricks.total > 0 ? (
        <p className="mark-warning" data-testid="output-flag">
          <Shown
            text={`⚠ The output used terminal sequences that hide or overwrite text (${describeTricks(tricks)}). The text view shows exactly what the model received.`}
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
              <LongText text={modelText} maxLines={TEXT_LINES} />
            </pre>
          }
        >
          <TerminalView text={raw} />
        </Suspense>
      ) : (
        <pre className="command-output-text" data-testid="command-output-text">
          <LongText text={modelText} maxLines={TEXT_LINES} />
        </pre>
      )}
    </div>
  );
}
