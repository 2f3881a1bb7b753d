import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../../src/renderer/src/chat/Markdown';

const render = (text: string): string => renderToStaticMarkup(createElement(Markdown, { text }));

describe('code inside markdown (a fence in a list item, rendered by react-markdown) is highlighted', () => {
  it('a known language gets highlight.js classes; its text is unchanged', () => {
    const html = render('1. Run this:\n\n   ```ts\n   const answer: number = 42;\n   ```');
    expect(html).toMatch(/<code class="hljs language-ts">/);
    expect(html).toContain('<span class="hljs-keyword">const</span>');
    expect(html.replace(/<[^>]+>/g, '')).toContain('const answer: number = 42;');
  });

  it('an unknown language, no language and "nohighlight" stay plain (nothing guessed)', () => {
    for (const fence of ['```klingon', '```', '```nohighlight']) {
      const html = render(`- x\n\n  ${fence}\n  const a = 1;\n  \`\`\``);
      expect(html, fence).not.toContain('hljs-');
      expect(html, fence).toContain('const a = 1;');
    }
  });
});
