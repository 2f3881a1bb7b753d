import { textOf, type HastNode } from './hast-node';
import { lowlight } from './highlight';

/**
 * A rehype plugin: highlights `<pre><code class="language-x">` with the page's one lowlight instance, as
 * rehype-highlight does with `detect: false` (a block without a known language stays plain). rehype-highlight builds
 * a new lowlight, registering some 35 languages, each time a processor is made, and react-markdown makes one per
 * render: while an answer streams that was most of each frame's work.
 */
export function rehypeHighlightCode() {
  return (tree: HastNode): void => visit(tree);
}

function visit(node: HastNode): void {
  for (const child of node.children ?? []) {
    if (node.tagName === 'pre' && child.tagName === 'code') highlight(child);
    else visit(child);
  }
}

function highlight(code: HastNode): void {
  const classes = Array.isArray(code.properties?.className) ? code.properties.className.map(String) : [];
  if (classes.includes('no-highlight') || classes.includes('nohighlight')) return;
  const lang = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length);
  if (!lang || !lowlight.registered(lang)) return;
  let tree: HastNode;
  try {
    tree = lowlight.highlight(lang, textOf(code), { prefix: 'hljs-' }) as HastNode;
  } catch {
    return; // shown plain
  }
  code.properties = { ...code.properties, className: ['hljs', ...classes] };
  if (tree.children && tree.children.length > 0) code.children = tree.children;
}
