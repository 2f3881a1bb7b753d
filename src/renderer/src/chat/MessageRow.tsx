import { memo } from 'react';
import { Shown } from '../display/Shown';
import type { ChatItem } from './chat-store';
import { Markdown } from './Markdown';
import { NoticeRow } from './NoticeRow';
import { ToolCard } from './ToolCard';
import { RewindButton } from '../rewind/RewindButton';

/**
 * One transcript entry. Memoised on the item's identity: the store gives a new object only to the item that changed
 * (the one streaming), so every other row skips re-rendering while text arrives.
 */
export const MessageRow = memo(function MessageRow({ item }: { item: ChatItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="msg msg-user" data-testid="user-message">
          <div className="msg-user-head">
            <span className="msg-role">You</span>
            {item.runId ? <RewindButton runId={item.runId} /> : null}
          </div>
          <p className="msg-plain">
            <Shown text={item.text} />
          </p>
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
      return <NoticeRow item={item} />;
  }
});

/** A first guess of a row's height (px) before it is measured: close guesses mean fewer corrections while scrolling. */
export function estimateRowHeight(item: ChatItem | undefined): number {
  if (!item) return 60;
  switch (item.kind) {
    case 'user':
    case 'assistant': {
      let lines = 1;
      for (let i = item.text.indexOf('\n'); i !== -1 && lines < 400; i = item.text.indexOf('\n', i + 1)) lines++;
      lines += Math.floor(item.text.length / 110);
      return 40 + 22 * Math.min(lines, 400);
    }
    case 'tool':
      return 64;
    case 'notice':
      return 36;
  }
}
