import type { ContentBlock, ConversationMessage } from '../../shared/conversation';

/**
 * Keeps the conversation inside the model's context window: when the estimated size nears the limit, the oldest tool
 * outputs are replaced by a visible marker (the model and the person both see that something was dropped); the
 * newest message's tool outputs, which the model has not seen yet, are always kept whole.
 */

export interface ContextBudget {
  /** The model's context window, in tokens. */
  limitTokens: number;
  /** Trim once the estimate passes this share of the limit (default 0.8): room is left for the answer. */
  thresholdRatio?: number;
  /** Characters sent every turn besides the messages (system prompt, tool definitions). */
  fixedChars?: number;
}

export interface TrimResult {
  messages: ConversationMessage[];
  trimmedResults: number;
  /** Characters of tool output removed (before the markers were added). */
  trimmedChars: number;
  estimatedTokens: number;
}

const MARKER_PREFIX = '[tool output trimmed to save context: ';

export function trimMarker(originalChars: number): string {
  return `${MARKER_PREFIX}${originalChars} characters]`;
}

export function isTrimmed(content: string): boolean {
  return content.startsWith(MARKER_PREFIX);
}

/** A rough, model-agnostic estimate: about four characters per token. */
export function estimateTokens(messages: ConversationMessage[], fixedChars = 0): number {
  return Math.ceil((fixedChars + messages.reduce((sum, m) => sum + messageChars(m), 0)) / 4);
}

export function trimToolOutputs(messages: ConversationMessage[], budget: ContextBudget): TrimResult {
  const targetChars = Math.floor(budget.limitTokens * (budget.thresholdRatio ?? 0.8) * 4);
  let totalChars = (budget.fixedChars ?? 0) + messages.reduce((sum, m) => sum + messageChars(m), 0);
  if (totalChars <= targetChars)
    return { messages, trimmedResults: 0, trimmedChars: 0, estimatedTokens: Math.ceil(totalChars / 4) };

  let trimmedResults = 0;
  let trimmedChars = 0;
  const out = messages.map((message) => ({ ...message, content: [...message.content] }));
  // Oldest first; the last message (the newest tool outputs) is never trimmed.
  for (let m = 0; m < out.length - 1 && totalChars > targetChars; m++) {
    const message = out[m]!;
    for (let b = 0; b < message.content.length && totalChars > targetChars; b++) {
      const block = message.content[b]!;
      if (block.type !== 'tool_result' || isTrimmed(block.content)) continue;
      const marker = trimMarker(block.content.length);
      if (marker.length >= block.content.length) continue;
      message.content[b] = { ...block, content: marker };
      totalChars -= block.content.length - marker.length;
      trimmedChars += block.content.length;
      trimmedResults++;
    }
  }
  return {
    messages: trimmedResults > 0 ? out : messages,
    trimmedResults,
    trimmedChars,
    estimatedTokens: Math.ceil(totalChars / 4),
  };
}

function messageChars(message: ConversationMessage): number {
  return message.content.reduce((sum, block) => sum + blockChars(block), 0);
}

function blockChars(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'tool_use':
      return block.name.length + (JSON.stringify(block.input) ?? '').length;
    case 'tool_result':
      return block.content.length;
  }
}
