// The display module: every view shows text it did not write itself (calls, paths, rules, hooks, diffs, output,
// links) through these, so hidden characters always show (issue 13; the lint rule gatehouse/shown-text checks).
export { Shown, shownNodes, shownText } from './Shown';
export type { ShownLines, ShownProps } from './Shown';
export { LongText } from './LongText';
export { FlaggedLinesWarning, MarkWarning, OutputMarksWarning, summariseAll } from './MarkWarning';
export type { MarkedText } from './MarkWarning';
export { askToOpen, ExternalLink, LinkConfirmHost } from './ExternalLink';
export { linkTextMisleads } from './link-target';
export { rehypeVisibleText } from './rehype-visible-text';
export { MARKER_LEGEND, summariseMarks } from '../../../shared/visible-text';
