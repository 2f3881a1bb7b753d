import type { ReactNode } from 'react';

/**
 * A small, safe markdown subset: fenced code blocks in <pre>, inline `code`, paragraphs. Everything is rendered as
 * React text (never as HTML), so whatever the model writes cannot inject markup.
 */
export function Markdown({ text }: { text: string }) {
  const parts = text.split(/^```/m);
  return (
    <div className="md">
      {parts.map((part, i) => {
        if (i % 2 === 1) {
          const nl = part.indexOf('\n');
          const lang = nl === -1 ? '' : part.slice(0, nl).trim();
          const code = nl === -1 ? part : part.slice(nl + 1);
          return (
            <pre key={i} className="md-code" data-lang={lang || undefined}>
              <code>{code.replace(/\n$/, '')}</code>
            </pre>
          );
        }
        return part
          .split(/\n{2,}/)
          .filter((p) => p.trim() !== '')
          .map((para, j) => <p key={`${i}-${j}`}>{inline(para)}</p>);
      })}
    </div>
  );
}

function inline(text: string): ReactNode[] {
  return text.split(/(`[^`\n]+`|\*\*[^*\n]+\*\*)/).map((piece, i) => {
    if (piece.length > 2 && piece.startsWith('`') && piece.endsWith('`')) return <code key={i}>{piece.slice(1, -1)}</code>;
    if (piece.length > 4 && piece.startsWith('**') && piece.endsWith('**')) return <strong key={i}>{piece.slice(2, -2)}</strong>;
    return piece;
  });
}
