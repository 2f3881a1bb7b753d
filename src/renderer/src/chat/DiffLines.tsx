import type { Token } from './highlight';
import type { DiffLine, SplitRow } from './diff-model';

const MARK: Record<DiffLine['kind'], string> = { add: '+', del: '-', context: ' ' };
const KIND_CLASS: Record<DiffLine['kind'], string> = { add: 'diff-line diff-add', del: 'diff-line diff-del', context: 'diff-line' };

function Code({ line, tokens }: { line: DiffLine; tokens: Token[] }) {
  return (
    <span className={KIND_CLASS[line.kind]}>
      <span className="diff-mark">{MARK[line.kind]}</span>
      {tokens.length === 0 ? ' ' : tokens.map((t, i) => (t.className ? <span key={i} className={t.className}>{t.text}</span> : t.text))}
    </span>
  );
}

const num = (n: number | null): string => (n === null ? '' : String(n));

/** One hunk as a unified diff: old and new line numbers, then the line (its text content is "+text", "-text"). */
export function UnifiedLines({ lines, tokens }: { lines: DiffLine[]; tokens: Token[][] }) {
  return (
    <pre className="diff-body diff-unified">
      {lines.map((line, i) => (
        <span key={i} className={`diff-row diff-row-${line.kind}`}>
          <span className="diff-num" aria-hidden="true">
            {num(line.oldNo)}
          </span>
          <span className="diff-num" aria-hidden="true">
            {num(line.newNo)}
          </span>
          <Code line={line} tokens={tokens[i] ?? []} />
        </span>
      ))}
    </pre>
  );
}

/** One hunk side by side: the old version on the left, the new one on the right, changed lines paired. */
export function SplitLines({ rows, tokensOf }: { rows: SplitRow[]; tokensOf(line: DiffLine): Token[] }) {
  const cell = (line: DiffLine | null, side: 'old' | 'new') =>
    line ? (
      <>
        <td className={`diff-num diff-cell-${line.kind}`} aria-hidden="true">
          {num(side === 'old' ? line.oldNo : line.newNo)}
        </td>
        <td className={`diff-cell diff-cell-${line.kind}`} data-side={side}>
          <Code line={line} tokens={tokensOf(line)} />
        </td>
      </>
    ) : (
      <>
        <td className="diff-num" aria-hidden="true" />
        <td className="diff-cell diff-cell-empty" data-side={side} />
      </>
    );
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
              {cell(row.left, 'old')}
              {cell(row.right, 'new')}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
