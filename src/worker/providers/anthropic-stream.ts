import { inputLimitProblem } from '../../shared/input-limits';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { fromAnthropicStopReason, parseToolInput } from './anthropic-convert';
import type { ContentBlock, ProviderResponse, ProviderStreamHandlers, StopReason } from './types';

type PendingBlock =
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; id: string; name: string; json: string; startInput: unknown }
  | { kind: 'ignored' };

/**
 * Folds the Messages API's stream events into one response: text deltas are forwarded as they come, tool-call
 * arguments (`input_json_delta`) are accumulated and parsed once the block ends.
 */
export class AnthropicStreamAccumulator {
  private readonly blocks = new Map<number, PendingBlock>();
  private stopReason: StopReason = 'other';
  private inputTokens = 0;
  private outputTokens = 0;
  /** Whether anything reached the handlers (a retry after that would repeat it). */
  delivered = false;
  /** Whether `message_stop` arrived: a stream that ends without it was cut off. */
  complete = false;

  constructor(private readonly handlers: ProviderStreamHandlers) {}

  push(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.inputTokens = totalInput(event.message.usage);
        this.outputTokens = event.message.usage.output_tokens ?? 0;
        return;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          this.blocks.set(event.index, { kind: 'text', text: block.text });
          if (block.text) this.emitText(block.text);
        } else if (block.type === 'tool_use') {
          this.blocks.set(event.index, {
            kind: 'tool_use',
            id: block.id,
            name: block.name,
            json: '',
            startInput: block.input,
          });
          this.delivered = true;
          this.handlers.onToolUseStart?.({ id: block.id, name: block.name });
        } else {
          this.blocks.set(event.index, { kind: 'ignored' });
        }
        return;
      }
      case 'content_block_delta': {
        const pending = this.blocks.get(event.index);
        if (!pending) return;
        if (event.delta.type === 'text_delta' && pending.kind === 'text') {
          pending.text += event.delta.text;
          this.emitText(event.delta.text);
        } else if (event.delta.type === 'input_json_delta' && pending.kind === 'tool_use') {
          pending.json += event.delta.partial_json;
        }
        return;
      }
      case 'message_delta':
        this.stopReason = fromAnthropicStopReason(event.delta.stop_reason);
        this.outputTokens = event.usage.output_tokens ?? this.outputTokens;
        if (event.usage.input_tokens != null) {
          this.inputTokens =
            event.usage.input_tokens +
            (event.usage.cache_creation_input_tokens ?? 0) +
            (event.usage.cache_read_input_tokens ?? 0);
        }
        return;
      case 'message_stop':
        this.complete = true;
        return;
      default:
        return;
    }
  }

  /** The response so far; a tool call cut off mid-arguments (max_tokens) comes back with `inputError`. */
  result(): ProviderResponse {
    const content: ContentBlock[] = [];
    for (const index of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const pending = this.blocks.get(index);
      if (!pending || pending.kind === 'ignored') continue;
      if (pending.kind === 'text') {
        content.push({ type: 'text', text: pending.text });
        continue;
      }
      const parsed = pending.json === '' ? parseStartInput(pending.startInput) : parseToolInput(pending.json);
      content.push({ type: 'tool_use', id: pending.id, name: pending.name, ...parsed });
    }
    return {
      content,
      stopReason: this.stopReason,
      usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens },
    };
  }

  private emitText(text: string): void {
    this.delivered = true;
    this.handlers.onText(text);
  }
}

function parseStartInput(input: unknown): { input: unknown; inputError?: string } {
  if (input === undefined || input === null) return { input: {} };
  const tooBig = inputLimitProblem(input);
  if (tooBig) return { input: {}, inputError: tooBig };
  return parseToolInput(JSON.stringify(input));
}

function totalInput(usage: {
  input_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}): number {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}
