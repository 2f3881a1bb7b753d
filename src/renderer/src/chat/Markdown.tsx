import { memo, useMemo, useRef } from 'react';
import type { ComponentPropsWithoutRef, JSX } from 'react';
import ReactMarkdown from 'react-markdown';
import type { Components, ExtraProps, Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock';
import { parseFencedBlock } from './fenced-code';
import { FencedCodeView } from './FencedCodeView';
import { textOf, type HastNode } from './hast-node';
import { extendMarkdownBlocks } from './markdown-blocks';
import type { MarkdownBlocks } from './markdown-blocks';
import { rehypeHighlightCode } from './rehype-highlight-code';
import { rehypeTrimCodeNewline } from './rehype-trim-code';
import { ExternalLink, rehypeVisibleText, Shown } from '../display';
import { safeLinkUrl } from './safe-url';
import './code-theme.css';
import './markdown.css';

type Props<T extends keyof JSX.IntrinsicElements> = ComponentPropsWithoutRef<T> & ExtraProps;

/**
 * Links open outside the app, only to http(s)/mailto, and only after the person saw the target (ExternalLink asks;
 * a text that reads like another address shows the real one beside it). Any other address leaves the text, inert.
 */
function SafeLink({ href, children, node }: Props<'a'>) {
  const url = safeLinkUrl(href);
  if (!url) {
    return (
      <span
        className="md-link-inert"
        data-testid="inert-link"
        title="Link removed: only http, https and mailto addresses open"
      >
        {children}
      </span>
    );
  }
  return (
    <ExternalLink href={url} text={textOf(node as HastNode | undefined)}>
      {children}
    </ExternalLink>
  );
}

/** Images are never fetched (the page loads nothing remote): their description shows instead. */
function ImageAsText({ alt, src }: Props<'img'>) {
  const label = `[image${alt ? `: ${alt}` : ''}]`;
  const url = typeof src === 'string' ? safeLinkUrl(src) : null;
  return url ? (
    <ExternalLink href={url} text={label}>
      <Shown text={label} lines="inline" />
    </ExternalLink>
  ) : (
    <Shown className="md-image" text={label} lines="inline" />
  );
}

function Table({ children }: Props<'table'>) {
  return (
    <div className="md-table-wrap">
      <table>{children}</table>
    </div>
  );
}

/** GFM task-list boxes: read-only, named for their state. */
function Input({ type, checked }: Props<'input'>) {
  if (type !== 'checkbox') return null;
  return <input type="checkbox" checked={checked ?? false} disabled readOnly aria-label={checked ? 'Done' : 'To do'} />;
}

const safeOrEmpty = (url: string): string => safeLinkUrl(url) ?? '';

const COMPONENTS: Components = { a: SafeLink, img: ImageAsText, pre: CodeBlock, table: Table, input: Input };
const REMARK_PLUGINS: Options['remarkPlugins'] = [remarkGfm];
const REHYPE_PLUGINS: Options['rehypePlugins'] = [rehypeTrimCodeNewline, rehypeHighlightCode, rehypeVisibleText];

/** One top-level block, parsed again only when its own text changes; a code block takes the fast code view. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  const fenced = parseFencedBlock(text);
  if (fenced) {
    return (
      <div className="md-block">
        <FencedCodeView code={fenced} />
      </div>
    );
  }
  return (
    <div className="md-block">
      <ReactMarkdown
        remarkPlugins={REMARK_PLUGINS}
        rehypePlugins={REHYPE_PLUGINS}
        components={COMPONENTS}
        skipHtml
        urlTransform={safeOrEmpty}
        // eslint-disable-next-line gatehouse/shown-text -- markdown source, not shown as is: rehypeVisibleText marks every text node it renders
        children={text}
      />
    </div>
  );
});

/** Past this many blocks, blocks out of view skip layout and paint (`content-visibility: auto`). */
const MANY_BLOCKS = 40;

/**
 * The model's markdown (GFM: tables, task lists, strikethrough; fenced code highlighted). Never raw HTML: HTML in the
 * text is dropped, links are checked by `safeLinkUrl`. While a message streams only its last block re-renders.
 */
export function Markdown({ text }: { text: string }) {
  const split = useRef<MarkdownBlocks | null>(null);
  const blocks = useMemo(() => {
    split.current = extendMarkdownBlocks(split.current, text);
    return split.current.blocks;
  }, [text]);
  return (
    <div className={blocks.length > MANY_BLOCKS ? 'md md-long' : 'md'}>
      {blocks.map((block, i) => (
        <MarkdownBlock key={i} text={block} />
      ))}
    </div>
  );
}
