import { describeMarks, summariseMarks } from '../../../shared/visible-text';
import type { MarkCategory, MarkSummary } from '../../../shared/visible-text';

export interface MarkedText {
  text: string;
  strict?: boolean;
}

/** What the display of all of `texts` needs: markers (how many, of which kinds). */
function summariseAll(texts: readonly MarkedText[]): MarkSummary {
  let count = 0;
  let newlines = 0;
  const categories = new Set<MarkCategory>();
  for (const t of texts) {
    const s = summariseMarks(t.text, { strict: t.strict === true });
    count += s.count;
    newlines += s.newlines;
    for (const c of s.categories) categories.add(c);
  }
  return { count, categories: [...categories], newlines };
}

/**
 * The warning at the top of a view whose untrusted text needed markers (an approval, the trust dialog): says how
 * many hidden characters there are and of which kinds, so the person looks before answering. Nothing when none.
 */
export function MarkWarning({ texts, subject }: { texts: readonly MarkedText[]; subject: string }) {
  const summary = summariseAll(texts);
  if (summary.count === 0) return null;
  return (
    <p className="mark-warning" role="alert" data-testid="mark-warning">
      {`⚠ ${subject} contains ${describeMarks(summary)}. Check what they do before you answer.`}
    </p>
  );
}

const lines = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;

/** Above a diff with lines holding hidden or direction-changing characters (Trojan Source): how many, and how they show. */
export function FlaggedLinesWarning({ count }: { count: number }) {
  return (
    <p className="mark-warning" data-testid="diff-flagged">
      {`⚠ ${lines(count)} of this diff hold${count === 1 ? 's' : ''} hidden or direction-changing characters (shown as ⟨…⟩, marked ⚠): what they do may differ from how they read.`}
    </p>
  );
}

/** Above command output whose text needed markers (and no terminal trick said more). */
export function OutputMarksWarning({ count }: { count: number }) {
  return (
    <p className="mark-warning" data-testid="output-flag">
      {`⚠ The output holds ${count} hidden character${count === 1 ? '' : 's'}, shown as ⟨…⟩ markers.`}
    </p>
  );
}
