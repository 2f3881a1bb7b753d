import type { ChatItem } from './chat-store';

/** The two streamed events that arrive many times a second. */
export type ChatDelta =
  | { type: 'text_delta'; turn: number; text: string }
  | { type: 'tool_call_output'; id: string; chunk: string };

/**
 * Folds a batch of deltas into the transcript in order: text extends the last assistant item of its turn (or starts
 * one), output extends its tool card. Only the items that changed are new objects; every other item keeps its
 * identity, so memoised rows do not re-render. Returns `items` itself when nothing changed.
 */
export function appendDeltas(items: ChatItem[], deltas: readonly ChatDelta[], newKey: () => string): ChatItem[] {
  let next: ChatItem[] | null = null;
  /** Items this batch created or copied: extended in place (nobody else holds them yet). */
  const own = new Set<ChatItem>();
  const edit = (index: number, change: (item: ChatItem) => void): void => {
    next ??= items.slice();
    let item = next[index] as ChatItem;
    if (!own.has(item)) {
      item = { ...item };
      own.add(item);
      next[index] = item;
    }
    change(item);
  };

  for (const delta of deltas) {
    const list: ChatItem[] = next ?? items;
    if (delta.type === 'text_delta') {
      if (delta.text === '') continue;
      const lastIndex = list.length - 1;
      const last = list[lastIndex];
      if (last?.kind === 'assistant' && last.turn === delta.turn) {
        edit(lastIndex, (it) => {
          if (it.kind === 'assistant') it.text += delta.text;
        });
      } else {
        const created: ChatItem = { kind: 'assistant', key: newKey(), turn: delta.turn, text: delta.text };
        next ??= items.slice();
        next.push(created);
        own.add(created);
      }
    } else {
      const index = findTool(list, delta.id);
      if (index === -1 || delta.chunk === '') continue;
      edit(index, (it) => {
        if (it.kind === 'tool') it.output += delta.chunk;
      });
    }
  }
  return next ?? items;
}

/** The newest card of a call (cards near the end are the ones still streaming, so search from there). */
function findTool(items: ChatItem[], callId: string): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it?.kind === 'tool' && it.callId === callId) return i;
  }
  return -1;
}
