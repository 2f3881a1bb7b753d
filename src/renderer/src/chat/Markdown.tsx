import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
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
import { ExternalLink } from '../display/ExternalLink';
import { rehypeVisibleText } from '../display/rehype-visible-text';
import { Shown } from '../display/Shown';
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

/** Past this many blocks, chunks out of view skip layout and paint. */
const MANY_BLOCKS = 40;
/** Blocks per chunk: few elements carry `content-visibility` (each one costs the page an intersection check a frame). */
const CHUNK_BLOCKS = 24;

/**
 * A run of consecutive blocks of a long message, out of view skipped by the browser (`content-visibility: auto`).
 * Re-rendered only when one of its blocks changed (the last chunk, while the message streams).
 */
const MarkdownChunk = memo(
  function MarkdownChunk({ blocks, from, to }: { blocks: readonly string[]; from: number; to: number }) {
    return (
      <div className="md-chunk">
        {blocks.slice(from, to).map((block, i) => (
          <MarkdownBlock key={from + i} text={block} />
        ))}
      </div>
    );
  },
  (a, b) => {
    if (a.from !== b.from || a.to !== b.to) return false;
    for (let i = a.from; i < a.to; i++) if (a.blocks[i] !== b.blocks[i]) return false;
    return true;
  },
);

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
  const root = useRef<HTMLDivElement>(null);
  // Long from the start (a stored message) or once it grows past MANY_BLOCKS (a streaming one): see below.
  const [long, setLong] = useState(() => blocks.length > MANY_BLOCKS);
  const growsLong = !long && blocks.length > MANY_BLOCKS;
  useLayoutEffect(() => {
    if (!growsLong || !root.current) return;
    // A chunk skipped by `content-visibility: auto` before the browser has recorded its size takes the placeholder
    // size (30em), however tall it was: a message growing long while the person reads above its end would shrink
    // under them, and the view jump. So each chunk, still laid out in full here, keeps its height as that size.
    for (const chunk of Array.from(root.current.children))
      if (chunk instanceof HTMLElement) chunk.style.containIntrinsicSize = `auto ${chunk.offsetHeight}px`;
    setLong(true);
  }, [growsLong]);
  // Always in chunks (a message that grows past MANY_BLOCKS keeps its elements): only the class changes there.
  const starts = Array.from({ length: Math.ceil(blocks.length / CHUNK_BLOCKS) }, (_, c) => c * CHUNK_BLOCKS);
  return (
    <div ref={root} className={long ? 'md md-long' : 'md'}>
      {starts.map((from) => (
        <MarkdownChunk key={from} blocks={blocks} from={from} to={Math.min(from + CHUNK_BLOCKS, blocks.length)} />
      ))}
    </div>
  );
}
