import { useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { MARKER_LEGEND } from '../../../shared/visible-text';
import { Shown } from '../display/Shown';

/** The language a markdown code block names (`language-ts` on its <code>), for its label. */
function languageOf(children: ReactNode): string | null {
  const child = Array.isArray(children) ? children[0] : children;
  if (typeof child !== 'object' || child === null || !('props' in child)) return null;
  const className = (child.props as { className?: unknown }).className;
  const match = typeof className === 'string' ? /\blanguage-([\w+#.-]+)/.exec(className) : null;
  return match?.[1] ?? null;
}

/**
 * A fenced code block in the model's text: its language and a "Copy code" button above the highlighted code. Hidden
 * characters show as markers; Copy copies exactly what is shown (the markers, never the characters), and a note
 * under the code says so whenever there are markers.
 */
export function CodeBlock({ children }: { children?: ReactNode }) {
  const preRef = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const [marked, setMarked] = useState(false);
  const language = languageOf(children);
  // Whether the shown code carries markers, read from the DOM once it is drawn (React skips an unchanged value).
  useLayoutEffect(() => {
    setMarked(Boolean(preRef.current?.querySelector('.hidden-char')));
  }, [children]);
  const copy = async (): Promise<void> => {
    const text = preRef.current?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // no clipboard permission: the code can still be selected and copied by hand
    }
  };
  return (
    <div className="md-code-wrap">
      <div className="md-code-bar">
        <Shown className="md-code-lang" text={language ?? 'text'} lines="inline" />
        <button type="button" className="link md-code-copy" onClick={() => void copy()} aria-label="Copy code">
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre ref={preRef} className="md-code">
        {children}
      </pre>
      {marked ? (
        <p className="md-code-legend" data-testid="code-legend">
          {MARKER_LEGEND}
        </p>
      ) : null}
    </div>
  );
}
