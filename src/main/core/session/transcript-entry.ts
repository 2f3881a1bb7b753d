import { z } from 'zod';
import { AgentEventSchema, AgentRunStatusSchema } from '../../../shared/agent-events';
import { ConversationMessageSchema, TokenUsageSchema } from '../../../shared/conversation';
import { RpcErrorSchema } from '../../../shared/errors';
import { AgentModeSchema, DecisionSchema } from '../../../shared/permission';

/**
 * One line of a session transcript (`<configDir>/sessions/<id>.jsonl`). The first line is the `session` header;
 * the conversation is rebuilt from the `messages` lines (each replaces the conversation from index `start` on).
 */
export const SESSION_FORMAT_VERSION = 1;

/** Session ids name files: letters, digits, `-` and `_` only (no separators, no dots). */
export const SessionIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/, 'not a session id');

const at = z.string();
const runId = z.string().min(1);

export const TranscriptEntrySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session'),
    format: z.literal(SESSION_FORMAT_VERSION),
    id: SessionIdSchema,
    createdAt: at,
    projectRoot: z.string().min(1),
    agentMode: AgentModeSchema,
    model: z.string(),
    /** A rewound copy: the session it was copied from, up to just before this run's message. */
    forkedFrom: z.object({ sessionId: SessionIdSchema, runId }).optional(),
  }),
  z.object({ type: z.literal('prompt'), at, runId, text: z.string(), agentMode: AgentModeSchema }),
  z.object({
    type: z.literal('messages'),
    at,
    runId,
    start: z.number().int().nonnegative(),
    messages: z.array(ConversationMessageSchema),
  }),
  z.object({ type: z.literal('event'), at, runId, event: AgentEventSchema }),
  /**
   * Written before each call's decision became one `tool_call_decided` event (with `asked` and `answer`): read
   * (what the engine asked first joins that call's event), never written any more.
   */
  z.object({
    type: z.literal('decision'),
    at,
    runId,
    callId: z.string().optional(),
    tool: z.string(),
    /** What the engine said first, and the final answer after a person's approval (or "approval required"). */
    engine: DecisionSchema,
    final: DecisionSchema,
  }),
  z.object({
    type: z.literal('result'),
    at,
    runId,
    status: AgentRunStatusSchema,
    usage: TokenUsageSchema,
    turns: z.number().int().nonnegative(),
    finalText: z.string(),
    error: RpcErrorSchema.optional(),
  }),
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntrySchema>;
export type SessionHeader = Extract<TranscriptEntry, { type: 'session' }>;

/** An entry as the writer takes it: the time is stamped on append; the old `decision` lines are never written. */
export type NewTranscriptEntry =
  Exclude<TranscriptEntry, { type: 'decision' }> extends infer E
    ? E extends { at: string }
      ? Omit<E, 'at'>
      : E
    : never;
