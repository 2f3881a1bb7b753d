import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../../src/renderer/src/chat/Markdown';

const render = (text: string): string => renderToStaticMarkup(createElement(Markdown, { text }));
const count = (html: string, cls: string): number => html.split(`class="${cls}"`).length - 1;
const paragraphs = (n: number): string =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i} with **bold**.`).join('\n\n');

describe('a long message renders its blocks in chunks (few elements skip layout when out of view)', () => {
  it('every block, in order, 24 to a chunk; past 40 blocks the message is marked long', () => {
    const html = render(paragraphs(100));
    expect(html.startsWith('<div class="md md-long">')).toBe(true);
    expect(count(html, 'md-block')).toBe(100);
    expect(count(html, 'md-chunk')).toBe(5);
    const shown = [...html.matchAll(/<p>Paragraph (\d+) with <strong>bold<\/strong>\.<\/p>/g)].map((m) => Number(m[1]));
    expect(shown).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('a short message is the same blocks without the long mark (it keeps its elements when it grows long)', () => {
    const html = render(paragraphs(3));
    expect(html.startsWith('<div class="md">')).toBe(true);
    expect(count(html, 'md-chunk')).toBe(1);
    expect(count(html, 'md-block')).toBe(3);
    expect(render('')).toBe('<div class="md"></div>');
  });
});
