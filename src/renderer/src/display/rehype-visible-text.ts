import { isPlainText, visibleSegments } from '../../../shared/visible-text';

/** The parts of a hast tree this plugin touches (structural, so it needs no hast types). */
interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string; children?: HastNode[] };

function marked(text: string): HastNode[] {
  return visibleSegments(text).map((s): HastNode => {
    if (s.kind === 'text') return { type: 'text', value: s.text };
    if (s.kind === 'newline') return { type: 'text', value: '\n' };
    return {
      type: 'element',
      tagName: 'span',
      properties: {
        className: ['hidden-char', `hidden-char-${s.category}`],
        title: s.title,
        dataCodePoint: s.codePoint.toString(16),
      },
      children: [{ type: 'text', value: s.text }],
    };
  });
}

function visit(node: HastNode): void {
  const children = 'children' in node ? node.children : undefined;
  if (!children) return;
  for (let i = 0; i < children.length; i++) {
    const child = children[i] as HastNode;
    if (child.type === 'text' && 'value' in child && !isPlainText(child.value)) {
      const replacement = marked(child.value);
      children.splice(i, 1, ...replacement);
      i += replacement.length - 1;
    } else visit(child);
  }
}

/**
 * A rehype plugin for the model's markdown: every text node (prose, code, link text) shows its hidden characters as
 * the display module's markers, so markdown renders untrusted text the same way <Shown> does. Runs last (after
 * highlighting, so markers never split a token's highlighting).
 */
export function rehypeVisibleText() {
  return (tree: HastNode): void => visit(tree);
}
