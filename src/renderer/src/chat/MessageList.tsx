import { useEffect, useRef } from 'react';
import type { ChatItem } from './chat-store';
import { Markdown } from './Markdown';
import { ToolCard } from './ToolCard';

function Item({ item }: { item: ChatItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="msg msg-user" data-testid="user-message">
          <span className="msg-role">You</span>
          <p className="msg-plain">{item.text}</p>
        </div>
      );
    case 'assistant':
      return (
        <div className="msg msg-assistant" data-testid="assistant-message">
          <span className="msg-role">Agent</span>
          <Markdown text={item.text} />
        </div>
      );
    case 'tool':
      return <ToolCard item={item} />;
    case 'notice':
      return (
        <p className={item.tone === 'error' ? 'msg-notice error' : 'msg-notice muted'} role={item.tone === 'error' ? 'alert' : undefined}>
          {item.text}
        </p>
      );
  }
}

/** The transcript, kept scrolled to the newest entry while the person is at the bottom. */
export function MessageList({ items }: { items: ChatItem[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  useEffect(() => {
    const el = ref.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [items]);
  return (
    <div
      ref={ref}
      className="message-list"
      role="log"
      aria-label="Conversation"
      aria-live="polite"
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      {items.length === 0 ? <p className="muted">No messages yet.</p> : items.map((item) => <Item key={item.key} item={item} />)}
    </div>
  );
}
