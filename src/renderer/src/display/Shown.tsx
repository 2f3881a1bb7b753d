import { memo } from 'react';
import type { ReactNode } from 'react';
import { isPlainText, NEWLINE_SIGN, visibleSegments, visibleText } from '../../../shared/visible-text';
import type { VisibleSegment } from '../../../shared/visible-text';
import './display.css';

type ShownLines =
  /** Line breaks shown as ⏎ on one line (list rows, headers, badges). */
  | 'inline'
  /** Line breaks kept as breaks (messages, reasons, JSON). */
  | 'block'
  /** Each line on its own row with its number beside it (commands, hooks: text the person must read exactly). */
  | 'numbered';

export interface ShownProps {
  text: string;
  /**
   * Text that runs or decides (commands, paths, rules, hooks): every invisible character is marked (even the
   * joiners emoji use), every space that is not U+0020 too, and the text is laid out in its stored order, left to
   * right, so no right-to-left run can reorder what is shown.
   */
  strict?: boolean;
  lines?: ShownLines;
  /** `code` for monospaced text. */
  as?: 'span' | 'code';
  className?: string;
  id?: string;
  'data-testid'?: string;
}

function Mark({ segment }: { segment: Extract<VisibleSegment, { kind: 'mark' }> }) {
  return (
    <span
      className={`hidden-char hidden-char-${segment.category}`}
      title={segment.title}
      data-code-point={segment.codePoint.toString(16)}
    >
      {segment.text}
    </span>
  );
}

function NewlineSign() {
  return (
    <span className="hidden-char hidden-char-newline" title="a line break">
      {NEWLINE_SIGN}
    </span>
  );
}

/** One segment as a node: text as is, a marker boxed; a line break as `newline` says. */
function node(s: VisibleSegment, key: number, newline: 'break' | 'sign'): ReactNode {
  if (s.kind === 'text') return s.text;
  if (s.kind === 'mark') return <Mark key={key} segment={s} />;
  return newline === 'sign' ? <NewlineSign key={key} /> : '\n';
}

/**
 * The nodes of untrusted text inside an element of the caller's own (a highlighted token of a diff or a code
 * block): markers for hidden characters; line breaks kept. Plain text comes back as the string itself.
 */
export function shownNodes(text: string, options: { strict?: boolean } = {}): ReactNode {
  if (isPlainText(text)) return text;
  return visibleSegments(text, options).map((s, i) => node(s, i, 'break'));
}

function rowsOf(segments: VisibleSegment[]): VisibleSegment[][] {
  const rows: VisibleSegment[][] = [[]];
  for (const s of segments) {
    if (s.kind === 'newline') rows.push([]);
    else rows[rows.length - 1]?.push(s);
  }
  return rows;
}

/**
 * Untrusted text, shown exactly: every invisible or direction-changing character as a visible marker (`⟨U+202E⟩`),
 * in an isolated run that cannot reorder the text around it, wrapping (nothing hides beyond a horizontal scroll),
 * runs of spaces kept. Every view renders text it did not write itself through this component (the lint rule
 * `gatehouse/shown-text` checks).
 */
export const Shown = memo(function Shown({
  text,
  strict = false,
  lines = 'block',
  as = 'span',
  className,
  id,
  ...rest
}: ShownProps) {
  const segments = visibleSegments(text, { strict });
  const numbered = lines === 'numbered' && text.includes('\n');
  const Tag = as;
  const classes = [
    'shown',
    strict ? 'shown-strict' : '',
    numbered ? 'shown-numbered' : `shown-${lines === 'numbered' ? 'block' : lines}`,
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  const body = numbered
    ? rowsOf(segments).map((row, r) => (
        <span key={r} className="shown-row">
          {row.map((s, i) => node(s, i, 'break'))}
        </span>
      ))
    : segments.map((s, i) => node(s, i, lines === 'inline' ? 'sign' : 'break'));
  return (
    <Tag className={classes} dir={strict ? 'ltr' : 'auto'} id={id} data-testid={rest['data-testid']}>
      {body}
    </Tag>
  );
});

/** Untrusted text for an attribute a person reads (a tooltip, an option): markers included, line breaks as ⏎. */
export function shownText(text: string, options: { strict?: boolean } = {}): string {
  return visibleText(text, { strict: options.strict === true, newlines: 'sign' });
}
