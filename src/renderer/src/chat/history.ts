import type { ToolCallDecided } from '../../../shared/agent-events';
import type { ConversationMessage } from '../../../shared/conversation';
import type { ChatItem, ToolItem } from './chat-store';

let loads = 0;

/** A stored command result's exit code, from its last `[exit code N]` line (null when it has none). */
export function exitCodeOf(content: string): number | null {
  const found = [...content.slice(-400).matchAll(/^\[exit code (\d+)\]/gm)];
  const last = found[found.length - 1];
  return last ? Number(last[1]) : null;
}

/** The stored conversation of a session as transcript items; each call's card gets its stored decision. */
export function itemsFromConversation(
  messages: ConversationMessage[],
  decisions: readonly ToolCallDecided[] = [],
): ChatItem[] {
  const decided = new Map(decisions.map((d) => [d.id, d]));
  const items: ChatItem[] = [];
  const tools = new Map<string, ToolItem>();
  // Keys unique across loads: rows of another conversation never inherit this one's (measured sizes are per key).
  const prefix = `h${++loads}-`;
  let n = 0;
  const key = (): string => `${prefix}${++n}`;
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === 'text' && block.text.trim()) {
        items.push(
          message.role === 'user'
            ? { kind: 'user', key: key(), text: block.text }
            : { kind: 'assistant', key: key(), turn: 0, text: block.text },
        );
      } else if (block.type === 'tool_use') {
        const decision = decided.get(block.id) ?? null;
        const tool: ToolItem = {
          kind: 'tool',
          key: key(),
          callId: block.id,
          name: block.name,
          input: block.input,
          decision,
          output: '',
          result: null,
          earlier: true,
        };
        tools.set(block.id, tool);
        items.push(tool);
      } else if (block.type === 'tool_result') {
        const tool = tools.get(block.tool_use_id);
        if (tool) {
          const denied = tool.decision !== null && !tool.decision.allow;
          tool.result = {
            ran: !block.is_error && !denied,
            isError: block.is_error && !denied,
            content: block.content,
            exitCode: tool.name === 'run_command' ? exitCodeOf(block.content) : null,
          };
        }
      }
    }
  }
  return items;
}
