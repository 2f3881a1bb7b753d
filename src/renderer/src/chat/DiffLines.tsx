import { Shown, shownNodes } from '../display/Shown';
import type { Token } from './highlight';
import type { DiffLine, SplitRow } from './diff-model';
import { lineIsFlagged } from './diff-model';

const MARK: Record<DiffLine['kind'], string> = { add: '+', del: '-', context: ' ' };
const KIND_CLASS: Record<DiffLine['kind'], string> = {
  add: 'diff-line diff-add',
  del: 'diff-line diff-del',
  context: 'diff-line',
};
const FLAGGED_LINE_TITLE =
  'This line holds hidden or direction-changing characters (shown as ⟨…⟩): what it does may differ from how it reads';

/** One line's code: highlighted tokens, hidden characters as markers; a flagged line says so in its margin. */
function Code({ line, tokens }: { line: DiffLine; tokens: Token[] }) {
  const flagged = lineIsFlagged(line);
  return (
    <span
      className={flagged ? `${KIND_CLASS[line.kind]} diff-line-flagged` : KIND_CLASS[line.kind]}
      data-flagged={flagged ? 'true' : undefined}
    >
      <span className="diff-mark">{MARK[line.kind]}</span>
      {flagged ? (
        <span className="diff-flag" title={FLAGGED_LINE_TITLE} aria-label="hidden characters">
          ⚠
        </span>
      ) : null}
      {tokens.length === 0
        ? ' '
        : tokens.map((t, i) =>
            t.className ? (
              <span key={i} className={t.className}>
                {shownNodes(t.text)}
              </span>
            ) : (
              shownNodes(t.text)
            ),
          )}
    </span>
  );
}

function Num({ n }: { n: number | null }) {
  return n === null ? null : <Shown text={String(n)} />;
}

/** One hunk as a unified diff: old and new line numbers, then the line (its text content is "+text", "-text"). */
export function UnifiedLines({ lines, tokens }: { lines: DiffLine[]; tokens: Token[][] }) {
  return (
    <pre className="diff-body diff-unified">
      {lines.map((line, i) => (
        <span key={i} className={`diff-row diff-row-${line.kind}`}>
          <span className="diff-num" aria-hidden="true">
            <Num n={line.oldNo} />
          </span>
          <span className="diff-num" aria-hidden="true">
            <Num n={line.newNo} />
          </span>
          <Code line={line} tokens={tokens[i] ?? []} />
        </span>
      ))}
    </pre>
  );
}

function Cell({
  line,
  side,
  tokensOf,
}: {
  line: DiffLine | null;
  side: 'old' | 'new';
  tokensOf(line: DiffLine): Token[];
}) {
  if (!line) {
    return (
      <>
        <td className="diff-num" aria-hidden="true" />
        <td className="diff-cell diff-cell-empty" data-side={side} />
      </>
    );
  }
  return (
    <>
      <td className={`diff-num diff-cell-${line.kind}`} aria-hidden="true">
        <Num n={side === 'old' ? line.oldNo : line.newNo} />
      </td>
      <td className={`diff-cell diff-cell-${line.kind}`} data-side={side}>
        <Code line={line} tokens={tokensOf(line)} />
      </td>
    </>
  );
}

/** One hunk side by side: the old version on the left, the new one on the right, changed lines paired. */
export function SplitLines({ rows, tokensOf }: { rows: SplitRow[]; tokensOf(line: DiffLine): Token[] }) {
  return (
    <div className="diff-body diff-split-wrap">
      <table className="diff-split">
        <colgroup>
          <col className="diff-col-num" />
          <col />
          <col className="diff-col-num" />
          <col />
        </colgroup>
        <thead className="diff-split-head">
          <tr>
            <th scope="colgroup" colSpan={2}>
              Before
            </th>
            <th scope="colgroup" colSpan={2}>
              After
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} className="diff-split-row">
              <Cell line={row.left} side="old" tokensOf={tokensOf} />
              <Cell line={row.right} side="new" tokensOf={tokensOf} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
