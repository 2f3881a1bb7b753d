import { common, createLowlight } from 'lowlight';
import type { HastNode } from './hast-node';

/** One run of text on one line, with the highlight.js classes that apply to it ('' for plain text). */
export interface Token {
  text: string;
  className: string;
}

/** The one highlighter of the page (registering its languages takes milliseconds: never per render). */
export const lowlight = createLowlight(common);

/** The highlight.js language for a file, by its name or extension; null when none is known (shown plain). */
export function languageForPath(filePath: string): string | null {
  const name = filePath.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  const dot = name.lastIndexOf('.');
  const candidates = dot > 0 ? [name.slice(dot + 1), name] : [name];
  return candidates.find((c) => c !== '' && lowlight.registered(c)) ?? null;
}

/**
 * Highlights `code` as a whole (so multi-line comments and strings are right) and cuts the result into lines:
 * `lines[i]` are the tokens of the code's line i. Without a language, or above `maxChars`, every line is plain.
 */
export function highlightLines(code: string, language: string | null, maxChars = 200_000): Token[][] {
  const plain = (): Token[][] => code.split('\n').map((text) => (text ? [{ text, className: '' }] : []));
  if (!language || code.length > maxChars || !lowlight.registered(language)) return plain();
  let tree: HastNode;
  try {
    tree = lowlight.highlight(language, code, { prefix: 'hljs-' }) as HastNode;
  } catch {
    return plain();
  }
  const lines: Token[][] = [[]];
  const walk = (node: HastNode, classes: string): void => {
    if (node.type === 'text') {
      const parts = (node.value ?? '').split('\n');
      parts.forEach((text, i) => {
        if (i > 0) lines.push([]);
        if (text) lines[lines.length - 1]?.push({ text, className: classes });
      });
      return;
    }
    const own = node.properties?.className;
    const next = Array.isArray(own) ? [classes, ...own.map(String)].filter(Boolean).join(' ') : classes;
    for (const child of node.children ?? []) walk(child, next);
  };
  walk(tree, '');
  return lines;
}
