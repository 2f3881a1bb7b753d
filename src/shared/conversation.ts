import { z } from 'zod';

/**
 * The conversation between the agent and the model, provider-neutral: the worker's providers translate it to their
 * API (Anthropic Messages today, an OpenAI-compatible one later); main stores it in the session transcript and
 * hands it back to resume a session.
 */

const TextBlockSchema = z.object({ type: z.literal('text'), text: z.string() });

const ToolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string(),
  /** The model's arguments: untrusted. `{}` when they could not be parsed (see `inputError`). */
  input: z.unknown(),
  /** Set when the model's arguments were not a valid JSON object: the call is refused, never run. */
  inputError: z.string().optional(),
});

const ToolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.string(),
  is_error: z.boolean(),
});

const ContentBlockSchema = z.discriminatedUnion('type', [TextBlockSchema, ToolUseBlockSchema, ToolResultBlockSchema]);

export const ConversationMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.array(ContentBlockSchema),
});

export const StopReasonSchema = z.enum([
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'refusal',
  'pause_turn',
  'other',
]);

export const TokenUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});
export type ToolUseBlock = z.infer<typeof ToolUseBlockSchema>;
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;
export type StopReason = z.infer<typeof StopReasonSchema>;
export type TokenUsage = z.infer<typeof TokenUsageSchema>;
