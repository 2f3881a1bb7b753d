import { useMemo, useState } from 'react';
import { FlaggedLinesWarning } from '../display/MarkWarning';
import { Shown, shownText } from '../display/Shown';
import { highlightHunk, lineIsFlagged, parseDiffHunks, splitRows } from './diff-model';
import type { DiffHunk, DiffLine } from './diff-model';
import { SplitLines, UnifiedLines } from './DiffLines';
import { languageForPath } from './highlight';
import './code-theme.css';
import './diff.css';

export type DiffLayout = 'unified' | 'split';

const LAYOUT_KEY = 'gatehouse.diffLayout';
const OPEN_HUNK_LINES = 60;

/** The layout chosen last in this window (the session), unified until one is chosen. */
function storedLayout(): DiffLayout {
  try {
    return sessionStorage.getItem(LAYOUT_KEY) === 'split' ? 'split' : 'unified';
  } catch {
    return 'unified';
  }
}

function useDiffLayout(): [DiffLayout, (layout: DiffLayout) => void] {
  const [layout, setLayout] = useState<DiffLayout>(storedLayout);
  const choose = (next: DiffLayout): void => {
    setLayout(next);
    try {
      sessionStorage.setItem(LAYOUT_KEY, next);
    } catch {
      // no storage: the choice lasts as long as this view
    }
  };
  return [layout, choose];
}

/** One hunk: folds; a long one starts folded and is highlighted only once opened. */
function Hunk({ hunk, layout, language }: { hunk: DiffHunk; layout: DiffLayout; language: string | null }) {
  const long = hunk.lines.length > OPEN_HUNK_LINES;
  const [open, setOpen] = useState(!long);
  return (
    <details className="diff-hunk" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <Shown text={hunk.header} as="code" lines="inline" />
        {long ? <Shown className="muted" text={` (${hunk.lines.length} lines)`} /> : null}
      </summary>
      {open ? <HunkBody hunk={hunk} layout={layout} language={language} /> : null}
    </details>
  );
}

function HunkBody({ hunk, layout, language }: { hunk: DiffHunk; layout: DiffLayout; language: string | null }) {
  const tokens = useMemo(() => highlightHunk(hunk.lines, language), [hunk, language]);
  const rows = useMemo(() => (layout === 'split' ? splitRows(hunk.lines) : []), [hunk, layout]);
  if (layout === 'unified') return <UnifiedLines lines={hunk.lines} tokens={tokens} />;
  const index = new Map<DiffLine, number>(hunk.lines.map((line, i) => [line, i]));
  return <SplitLines rows={rows} tokensOf={(line) => tokens[index.get(line) ?? -1] ?? []} />;
}

/**
 * A diff preview: unified or side by side (the choice is remembered for the session), highlighted by the file's
 * extension, every hunk folds and long ones start folded.
 */
export function DiffView({ path, diff }: { path: string; diff: string }) {
  const hunks = useMemo(() => parseDiffHunks(diff), [diff]);
  const language = languageForPath(path);
  const [layout, setLayout] = useDiffLayout();
  const count = (kind: DiffLine['kind']): number =>
    hunks.reduce((n, h) => n + h.lines.filter((l) => l.kind === kind).length, 0);
  const flagged = useMemo(() => hunks.reduce((n, h) => n + h.lines.filter(lineIsFlagged).length, 0), [hunks]);
  return (
    <section className="diff-view" aria-label={shownText(`Changes to ${path}`)} data-layout={layout}>
      {flagged > 0 ? <FlaggedLinesWarning count={flagged} /> : null}
      <div className="diff-toolbar">
        <p className="diff-summary">
          <Shown text={path} strict lines="inline" as="code" />{' '}
          <Shown className="diff-add-count" text={`+${count('add')}`} />{' '}
          <Shown className="diff-del-count" text={`−${count('del')}`} />
        </p>
        <div className="diff-layouts" role="group" aria-label="Diff layout">
          {(['unified', 'split'] as const).map((option) => (
            <button
              key={option}
              type="button"
              className="diff-layout-button"
              aria-pressed={layout === option}
              onClick={() => setLayout(option)}
            >
              {option === 'unified' ? 'Unified' : 'Split'}
            </button>
          ))}
        </div>
      </div>
      {hunks.length === 0 ? <p className="muted">No changes.</p> : null}
      {hunks.map((hunk, i) => (
        <Hunk key={i} hunk={hunk} layout={layout} language={language} />
      ))}
    </section>
  );
}
