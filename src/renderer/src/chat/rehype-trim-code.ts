import type { HastNode } from './hast-node';

/**
 * A rehype plugin: markdown code blocks end with a newline in hast; the shown code does not (so copying a block
 * gives exactly its lines). Runs before highlighting.
 */
export function rehypeTrimCodeNewline() {
  return (tree: HastNode): void => trim(tree);
}

function trim(node: HastNode): void {
  for (const child of node.children ?? []) {
    if (node.tagName === 'pre' && child.tagName === 'code') {
      const last = child.children?.[child.children.length - 1];
      if (last?.type === 'text' && last.value?.endsWith('\n')) last.value = last.value.slice(0, -1);
    } else trim(child);
  }
}
