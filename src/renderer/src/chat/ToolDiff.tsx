import { useMemo, useState } from 'react';
import { unpreviewableSummary, type ToolPreview } from '../../../shared/agent-events';
import { Shown } from '../display/Shown';
import { DiffView } from './DiffView';

/** Cards whose diff is open, by call id: a card scrolled out of a virtualised list and back stays open. */
const openDiffs = new Set<string>();

/** Lines added and removed by a unified diff (its file header lines not counted). */
function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added++;
    else if (line.startsWith('-') && !line.startsWith('---')) removed++;
  }
  return { added, removed };
}

/** What the summary line says of the change: `+3 −1`, or that it cannot be shown. */
function summaryOf(preview: ToolPreview): string {
  if (preview.kind === 'unpreviewable') return 'no preview';
  const { added, removed } = diffCounts(preview.unifiedDiff);
  return `+${added} −${removed}${preview.omittedLines ? ' (cut)' : ''}`;
}

const lines = (n: number): string => `${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'}`;

/**
 * A write's diff as it was decided (approved, or allowed by a rule without asking), kept on its card after the run
 * and in the stored session: folded, one click opens it. A diff stored cut says how many lines it left out.
 */
export function ToolDiff({ callId, preview }: { callId: string; preview: ToolPreview }) {
  const [open, setOpen] = useState(() => openDiffs.has(callId));
  const summary = useMemo(() => summaryOf(preview), [preview]);
  const toggle = (isOpen: boolean): void => {
    if (isOpen) openDiffs.add(callId);
    else openDiffs.delete(callId);
    setOpen(isOpen);
  };
  return (
    <details className="tool-diff" open={open} onToggle={(e) => toggle(e.currentTarget.open)} data-testid="tool-diff">
      <summary>
        {'Diff '}
        <Shown className="muted" text={summary} lines="inline" />
      </summary>
      {!open ? null : preview.kind === 'unpreviewable' ? (
        <p className="muted">
          <Shown text={preview.path} strict lines="inline" as="code" />
          {': '}
          <Shown text={unpreviewableSummary(preview)} />
        </p>
      ) : (
        <>
          {preview.omittedLines ? (
            <p className="muted" data-testid="tool-diff-cut">
              <Shown
                text={`Only the start of this diff was kept: ${lines(preview.omittedLines)} more are not shown here.`}
              />
            </p>
          ) : null}
          <DiffView path={preview.path} diff={preview.unifiedDiff} />
        </>
      )}
    </details>
  );
}
