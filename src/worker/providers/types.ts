import type { ContentBlock, ConversationMessage, StopReason, TokenUsage } from '../../shared/conversation';
import type { ToolDefinitionForModel } from '../tools/types';

export type { ContentBlock, ConversationMessage, StopReason } from '../../shared/conversation';

/** One model turn: everything the model sees. */
export interface ProviderRequest {
  system: string;
  messages: ConversationMessage[];
  tools: ToolDefinitionForModel[];
  maxTokens: number;
  model: string;
}

/** Called as the answer streams in; the final content comes back from `stream()` whole. */
export interface ProviderStreamHandlers {
  onText(delta: string): void;
  /** A tool call begins (its input is still streaming). */
  onToolUseStart?(call: { id: string; name: string }): void;
}

export interface ProviderResponse {
  /** text and tool_use blocks, in order; a tool_use whose input was not valid JSON carries `inputError`. */
  content: ContentBlock[];
  stopReason: StopReason;
  usage: TokenUsage;
}

/**
 * A model API. Implementations retry transient failures themselves (rate limits, overload, 5xx) and reject with
 * `CancelledError` as soon as `signal` aborts, or with `ProviderError` when the model cannot answer.
 */
export interface ModelProvider {
  readonly name: string;
  /** The model used when the caller does not name one. */
  readonly defaultModel: string;
  stream(request: ProviderRequest, handlers: ProviderStreamHandlers, signal: AbortSignal): Promise<ProviderResponse>;
}
