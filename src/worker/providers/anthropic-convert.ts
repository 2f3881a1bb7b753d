import { inputLimitProblem } from '../../shared/input-limits';
import type {
  ContentBlockParam,
  Message,
  MessageParam,
  StopReason as AnthropicStopReason,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ToolDefinitionForModel } from '../tools/types';
import type { ContentBlock, ConversationMessage, StopReason } from './types';

/** Our provider-neutral conversation -> Anthropic Messages API params. */
export function toAnthropicMessages(messages: ConversationMessage[]): MessageParam[] {
  return messages.map((message) => ({ role: message.role, content: message.content.map(toAnthropicBlock) }));
}

function toAnthropicBlock(block: ContentBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      // A call whose arguments did not parse is replayed with an empty object: the API needs an object, and the
      // tool_result that follows tells the model what was wrong with what it sent.
      return {
        type: 'tool_use',
        id: block.id,
        name: block.name,
        input: block.inputError !== undefined ? {} : block.input,
      };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: block.tool_use_id, content: block.content, is_error: block.is_error };
  }
}

export function toAnthropicTools(tools: ToolDefinitionForModel[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.input_schema },
  }));
}

export function fromAnthropicStopReason(reason: AnthropicStopReason | null | undefined): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
    case 'pause_turn':
      return reason;
    default:
      return 'other';
  }
}

/**
 * Parses a tool call's streamed arguments. Anything but a JSON object becomes `inputError`: the runner refuses that
 * call with the reason instead of crashing or running it with guessed arguments.
 */
export function parseToolInput(json: string): { input: unknown; inputError?: string } {
  if (json.trim() === '') return { input: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { input: {}, inputError: `the tool arguments are not valid JSON (${why}): ${clip(json, 200)}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { input: {}, inputError: `the tool arguments must be a JSON object, got: ${clip(json, 200)}` };
  }
  const tooBig = inputLimitProblem(parsed);
  if (tooBig) return { input: {}, inputError: tooBig };
  return { input: parsed };
}

/** A whole (non-streamed) API message -> our content blocks. */
export function fromAnthropicMessage(message: Message): ContentBlock[] {
  const content: ContentBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') content.push(toolUseFromObject(block.id, block.name, block.input));
  }
  return content;
}

function toolUseFromObject(id: string, name: string, input: unknown): ContentBlock {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return {
      type: 'tool_use',
      id,
      name,
      input: {},
      inputError: `the tool arguments must be a JSON object, got: ${clip(safeJson(input), 200)}`,
    };
  }
  // Checked before anything serialises it: an input nested absurdly deep would overflow the stack there.
  const tooBig = inputLimitProblem(input);
  if (tooBig) return { type: 'tool_use', id, name, input: {}, inputError: tooBig };
  return { type: 'tool_use', id, name, input };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return Array.isArray(value) ? 'an array nested too deep to show' : typeof value;
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
