import { memo, useMemo } from 'react';
import { shownNodes } from '../display/Shown';
import { CodeBlock } from './CodeBlock';
import { codeSegments } from './fenced-code';
import type { FencedCode } from './fenced-code';
import { highlightLines } from './highlight';

/** One segment of a code block, highlighted again only when its own text changes. */
const Segment = memo(function Segment({
  text,
  language,
  last,
}: {
  text: string;
  language: string | null;
  last: boolean;
}) {
  const lines = useMemo(() => highlightLines(text, language), [text, language]);
  return (
    <>
      {lines.map((tokens, i) => (
        <span key={i}>
          {tokens.map((t, j) =>
            t.className ? (
              <span key={j} className={t.className}>
                {shownNodes(t.text)}
              </span>
            ) : (
              shownNodes(t.text)
            ),
          )}
          {i < lines.length - 1 || !last ? '\n' : null}
        </span>
      ))}
    </>
  );
});

/**
 * A top-level fenced code block, highlighted segment by segment (`codeSegments`): while the model streams a long
 * file into it, only the last segment is highlighted again. Looks like the markdown renderer's code blocks.
 */
export function FencedCodeView({ code }: { code: FencedCode }) {
  const segments = codeSegments(code.lines);
  const language = code.language || null;
  return (
    <CodeBlock>
      <code className={language ? `hljs language-${language}` : undefined}>
        {segments.map((text, i) => (
          <Segment key={i} text={text} language={language} last={i === segments.length - 1} />
        ))}
      </code>
    </CodeBlock>
  );
}
