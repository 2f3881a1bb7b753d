interface Hunk {
  header: string;
  lines: string[];
}

/** Splits a unified diff into its file header lines and hunks. */
export function parseUnifiedDiff(diff: string): { files: string[]; hunks: Hunk[] } {
  const files: string[] = [];
  const hunks: Hunk[] = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) hunks.push({ header: line, lines: [] });
    else if (hunks.length === 0) {
      if (line.startsWith('---') || line.startsWith('+++')) files.push(line);
    } else if (line !== '' || hunks[hunks.length - 1]?.lines.length === 0) hunks[hunks.length - 1]?.lines.push(line);
  }
  return { files, hunks };
}

function lineClass(line: string): string {
  if (line.startsWith('+')) return 'diff-line diff-add';
  if (line.startsWith('-')) return 'diff-line diff-del';
  return 'diff-line';
}

const OPEN_HUNK_LINES = 60;

/** A unified diff, added and removed lines coloured; every hunk folds, long ones start folded. */
export function DiffView({ path, diff }: { path: string; diff: string }) {
  const { hunks } = parseUnifiedDiff(diff);
  const added = hunks.reduce((n, h) => n + h.lines.filter((l) => l.startsWith('+')).length, 0);
  const removed = hunks.reduce((n, h) => n + h.lines.filter((l) => l.startsWith('-')).length, 0);
  return (
    <section className="diff-view" aria-label={`Changes to ${path}`}>
      <p className="diff-summary">
        <code>{path}</code> <span className="diff-add-count">+{added}</span> <span className="diff-del-count">−{removed}</span>
      </p>
      {hunks.length === 0 ? <p className="muted">No changes.</p> : null}
      {hunks.map((hunk, i) => (
        <details key={i} className="diff-hunk" open={hunk.lines.length <= OPEN_HUNK_LINES}>
          <summary>
            <code>{hunk.header}</code>
            {hunk.lines.length > OPEN_HUNK_LINES ? <span className="muted"> ({hunk.lines.length} lines)</span> : null}
          </summary>
          <pre className="diff-body">
            {hunk.lines.map((line, j) => (
              <span key={j} className={lineClass(line)}>
                {line || ' '}
              </span>
            ))}
          </pre>
        </details>
      ))}
    </section>
  );
}
