import { useState } from 'react';
import { Shown } from './Shown';
import type { ShownProps } from './Shown';

export interface LongTextProps extends Omit<ShownProps, 'text'> {
  text: string;
  /** Lines shown before "Show all". */
  maxLines: number;
}

/**
 * Untrusted text that may be long: the first `maxLines` lines, then a button that says how much is hidden and shows
 * it (a person must be able to see all of it before answering). Wraps; nothing sits beyond a horizontal scroll.
 */
export function LongText({ text, maxLines, ...shown }: LongTextProps) {
  const [all, setAll] = useState(false);
  const lines = text.split('\n');
  const hidden = lines.length - maxLines;
  if (all || hidden <= 0) return <Shown text={text} {...shown} />;
  return (
    <>
      <Shown text={lines.slice(0, maxLines).join('\n')} {...shown} />
      <button type="button" className="link long-text-more" onClick={() => setAll(true)} data-testid="show-all-lines">
        {`Show all ${lines.length} lines (${hidden} more hidden)`}
      </button>
    </>
  );
}
