import { useVirtualizer } from '@tanstack/react-virtual';
import type { KeyboardEvent } from 'react';
import { useCallback, useLayoutEffect, useRef } from 'react';
import type { ChatItem } from './chat-store';
import { estimateRowHeight, MessageRow } from './MessageRow';

/** How close to the end (px) still counts as "at the bottom", so streamed text keeps it pinned there. */
const AT_END_PX = 8;
/** Rows rendered beyond the visible ones on each side (keeps short scrolls free of blank gaps). */
const OVERSCAN = 6;

/**
 * The transcript as a virtualised list: only the rows near the viewport are in the DOM, each measured after it renders
 * and again whenever its content changes height (a ResizeObserver per row, via measureElement), so rows may hold
 * anything (markdown, tool cards that expand, terminals that mount later). While the person is at the bottom, new
 * and growing rows keep it at the bottom; once they scroll up, it stays where they are. Keyboard: the list is
 * focusable; PageUp/PageDown, Home and End scroll it.
 */
export function MessageList({ items }: { items: ChatItem[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: useCallback((index: number) => estimateRowHeight(itemsRef.current[index]), []),
    // A new function per transcript change: the virtualizer re-reads the keys (cheap, even for 5,000 rows).
    getItemKey: useCallback((index: number) => items[index]?.key ?? index, [items]),
    overscan: OVERSCAN,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: AT_END_PX,
  });

  // A different conversation (a resumed session, another project) opens at its newest message; a message the person
  // just sent brings them to the bottom too, wherever they were (the answer then streams in view).
  const firstKey = items[0]?.key;
  const last = items[items.length - 1];
  const sentKey = last?.kind === 'user' ? last.key : undefined;
  useLayoutEffect(() => {
    if (firstKey !== undefined) virtualizer.scrollToEnd();
  }, [firstKey, sentKey, virtualizer]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const el = scrollRef.current;
    // Keys inside a row (a summary, a terminal) stay theirs; only the list itself scrolls.
    if (!el || event.target !== el || event.altKey || event.ctrlKey || event.metaKey) return;
    const page = Math.max(40, el.clientHeight * 0.9);
    if (event.key === 'PageDown') virtualizer.scrollBy(page);
    else if (event.key === 'PageUp') virtualizer.scrollBy(-page);
    else if (event.key === 'Home') virtualizer.scrollToOffset(0);
    else if (event.key === 'End') virtualizer.scrollToEnd();
    else return;
    event.preventDefault();
  };

  const rows = virtualizer.getVirtualItems();
  return (
    // A scrollable log must be reachable by keyboard to be scrolled (arrow keys, Page Up/Down): focusable, with keys.
    /* eslint-disable jsx-a11y/no-noninteractive-tabindex, jsx-a11y/no-noninteractive-element-interactions */
    <div
      ref={scrollRef}
      className="message-list"
      role="log"
      aria-label="Conversation"
      aria-live="polite"
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-count={items.length}
      /* eslint-enable jsx-a11y/no-noninteractive-tabindex, jsx-a11y/no-noninteractive-element-interactions */
    >
      {items.length === 0 ? (
        <p className="muted">No messages yet.</p>
      ) : (
        <div className="message-list-canvas" style={{ height: virtualizer.getTotalSize() }}>
          <div className="message-list-rows" style={{ transform: `translateY(${rows[0]?.start ?? 0}px)` }}>
            {rows.map((row) => {
              const item = items[row.index];
              return item ? (
                <div key={row.key} ref={virtualizer.measureElement} data-index={row.index} className="message-row">
                  <MessageRow item={item} />
                </div>
              ) : null;
            })}
          </div>
        </div>
      )}
    </div>
  );
}
