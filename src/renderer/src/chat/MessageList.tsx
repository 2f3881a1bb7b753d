import { useVirtualizer } from '@tanstack/react-virtual';
import type { KeyboardEvent, RefObject } from 'react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Shown } from '../display/Shown';
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
export function MessageList({
  items,
  project = null,
  hasModelKey = true,
}: {
  items: ChatItem[];
  project?: string | null;
  hasModelKey?: boolean;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const following = useFollowEnd(scrollRef);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: useCallback((index: number) => estimateRowHeight(itemsRef.current[index]), []),
    // A new function per transcript change: the virtualizer re-reads the keys (cheap, even for 5,000 rows).
    getItemKey: useCallback((index: number) => items[index]?.key ?? index, [items]),
    overscan: OVERSCAN,
    // Kept at the end only while the person is there: once they scroll up, nothing moves them back.
    anchorTo: following.on ? 'end' : 'start',
    followOnAppend: following.on,
    scrollEndThreshold: AT_END_PX,
    // A row measured larger (the streaming message grew) re-renders the list in the next task, not synchronously
    // inside the ResizeObserver callback: the scroll position is already kept at the end by then.
    useFlushSync: false,
  });

  // A different conversation (a resumed session, another project) opens at its newest message; a message the person
  // just sent brings them to the bottom too, wherever they were (the answer then streams in view).
  const firstKey = items[0]?.key;
  const last = items[items.length - 1];
  const sentKey = last?.kind === 'user' ? last.key : undefined;
  const follow = following.follow;
  useLayoutEffect(() => {
    if (firstKey === undefined) return;
    follow();
    virtualizer.scrollToEnd();
  }, [firstKey, sentKey, virtualizer, follow]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const el = scrollRef.current;
    // Keys inside a row (a summary, a terminal) stay theirs; only the list itself scrolls.
    if (!el || event.target !== el || event.altKey || event.ctrlKey || event.metaKey) return;
    const page = Math.max(40, el.clientHeight * 0.9);
    if (event.key === 'PageDown') virtualizer.scrollBy(page);
    else if (event.key === 'PageUp') virtualizer.scrollBy(-page);
    else if (event.key === 'Home') virtualizer.scrollToOffset(0);
    else if (event.key === 'End') {
      follow();
      virtualizer.scrollToEnd();
    } else return;
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
        <EmptyChat project={project} hasModelKey={hasModelKey} />
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

/** How far from the end (px) a scroll must end to count as "back at the end" (the person follows again). */
const BACK_AT_END_PX = 24;

/**
 * Whether the transcript follows its end. The person leaves by scrolling up (wheel, touch, keys, the scroll bar),
 * noticed from the input itself, before the position changes, so a row that grows meanwhile cannot pull them back;
 * they come back by scrolling to the end (or sending a message, or End).
 */
function useFollowEnd(scrollRef: RefObject<HTMLDivElement | null>): { on: boolean; follow(): void } {
  const [on, setOn] = useState(true);
  const onRef = useRef(true);
  const set = useCallback((value: boolean) => {
    if (onRef.current === value) return;
    onRef.current = value;
    setOn(value);
  }, []);
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let lastTop = el.scrollTop;
    let userInput = false;
    const leave = (): void => {
      userInput = true;
      if (el.scrollHeight > el.clientHeight) set(false);
    };
    const onWheel = (e: WheelEvent): void => {
      if (e.deltaY < 0) leave();
      else userInput = true;
    };
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (['PageUp', 'ArrowUp', 'Home'].includes(e.key)) leave();
      else if (['PageDown', 'ArrowDown', 'End', ' '].includes(e.key)) userInput = true;
    };
    // A press on the list itself (not a row) is on its scroll bar.
    const onPointerDown = (e: PointerEvent): void => {
      if (e.target === el) leave();
    };
    const onTouchMove = (): void => leave();
    const onScroll = (): void => {
      const top = el.scrollTop;
      const distance = el.scrollHeight - el.clientHeight - top;
      if (top < lastTop - 1 && userInput) set(false);
      else if (distance <= BACK_AT_END_PX && (userInput || top > lastTop)) set(true);
      lastTop = top;
    };
    const onScrollEnd = (): void => {
      userInput = false;
    };
    el.addEventListener('wheel', onWheel, { passive: true });
    el.addEventListener('keydown', onKey);
    el.addEventListener('pointerdown', onPointerDown);
    el.addEventListener('touchmove', onTouchMove, { passive: true });
    el.addEventListener('scroll', onScroll, { passive: true });
    el.addEventListener('scrollend', onScrollEnd);
    return () => {
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('keydown', onKey);
      el.removeEventListener('pointerdown', onPointerDown);
      el.removeEventListener('touchmove', onTouchMove);
      el.removeEventListener('scroll', onScroll);
      el.removeEventListener('scrollend', onScrollEnd);
    };
  }, [scrollRef, set]);
  return { on, follow: useCallback(() => set(true), [set]) };
}

/** What an empty chat says: what to do next. */
function EmptyChat({ project, hasModelKey }: { project: string | null; hasModelKey: boolean }) {
  if (!project)
    return (
      <div className="chat-empty">
        <p className="chat-empty-title">No project open</p>
        <p className="muted">Open a project folder with “Switch project” in the sidebar to start chatting.</p>
      </div>
    );
  return (
    <div className="chat-empty">
      <p className="chat-empty-title">Ask the agent about this project</p>
      <p className="muted">
        <Shown text={project} strict lines="inline" as="code" />
      </p>
      <p className="muted">
        {hasModelKey
          ? 'It reads files freely; edits and commands follow your rules and the permission mode, and ask you when they need to.'
          : 'First save a model key in Settings.'}
      </p>
    </div>
  );
}
