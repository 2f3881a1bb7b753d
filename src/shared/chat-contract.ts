import { z } from 'zod';
import {
  AgentEventSchema,
  AgentRunStatusSchema,
  HookRunsEventSchema,
  RunOutcomeSchema,
  ToolCallDecidedSchema,
} from './agent-events';
import { ConversationMessageSchema, TokenUsageSchema } from './conversation';
import { ApprovalChoiceSchema, ApprovalRequestSchema } from './approval-contract';
import { AgentModeSchema } from './permission';

/**
 * The chat between the renderer and the app's agent session: send a message, cancel, answer approvals. The
 * channels are spread into `ApiChannels` and the events into `ApiEventSchema` (api.ts).
 */

const none = z.object({}).strict();

/** A call the engine asks about, as the approval dialog shows it: its input as text. Never carries a credential. */
export const ApprovalRequestEventSchema = ApprovalRequestSchema.omit({ input: true }).extend({
  type: z.literal('approvalRequest'),
  /** The path or command the call is about ('' when the input names none). */
  target: z.string(),
  /** The call's input as short, readable text. */
  inputSummary: z.string(),
});
export type ApprovalRequestEvent = z.infer<typeof ApprovalRequestEventSchema>;

const RunFinishedEventSchema = z.object({
  type: z.literal('runFinished'),
  runId: z.string(),
  ...RunOutcomeSchema.shape,
});

export const ChatEventSchemas = [
  /** One event of the running agent (streamed text, tool calls and their one decision each, usage, the end). */
  z.object({ type: z.literal('agent'), runId: z.string(), event: AgentEventSchema }),
  ApprovalRequestEventSchema,
  /** The request is no longer waiting (answered here or elsewhere, the run stopped, or nobody is left to answer). */
  z.object({ type: z.literal('approvalClosed'), requestId: z.string(), reason: z.string() }),
  RunFinishedEventSchema,
] as const;

const SessionSummarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  prompts: z.number().int().nonnegative(),
  lastPrompt: z.string().nullable(),
  /** The name the person gave it (null: none; the first prompt names it). */
  title: z.string().nullable().optional(),
  firstPrompt: z.string().nullable().optional(),
  /** How its last run ended (null: none finished). */
  lastStatus: AgentRunStatusSchema.nullable().optional(),
  /** Tokens of its finished runs. */
  usage: TokenUsageSchema.optional(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** A message the person sent: the run it started and where it is in the conversation (what "Rewind to here" names). */
const PromptStartSchema = z.object({
  runId: z.string(),
  index: z.number().int().nonnegative(),
  /** What the person wrote (the conversation holds it as the model was given it: wrapped for plan mode, with hooks' context). */
  text: z.string().optional(),
});
export type PromptStart = z.infer<typeof PromptStartSchema>;

const ChatStateSchema = z.object({
  project: z.string().nullable(),
  sessionId: z.string().nullable(),
  runningRunId: z.string().nullable(),
  /** Approvals still waiting for an answer (a reloaded page shows them again). */
  pending: z.array(ApprovalRequestEventSchema),
  /** Whether the server has a model key (the key itself never leaves main). */
  hasModelKey: z.boolean(),
  /** The open session's conversation so far (a reloaded page shows it again). */
  messages: z.array(ConversationMessageSchema),
  /** The decisions of its tool calls (from the transcript and this run), one per call: the cards' badges. */
  decisions: z.array(ToolCallDecidedSchema),
  /** Its hook runs outside the permission check (after a call, at a prompt, at the end of a run). */
  hookRuns: z.array(HookRunsEventSchema),
  /** Its sub-agents' starts, ends and calls (nested under their task card). */
  subagentEvents: z.array(AgentEventSchema).optional(),
  /** The person's messages in the conversation, with their runs. */
  prompts: z.array(PromptStartSchema).optional(),
});
export type ChatState = z.infer<typeof ChatStateSchema>;

/** A session opened in the chat (resumed, or rewound into a copy): what the transcript shows. */
export const ResumedSessionSchema = z.object({
  sessionId: z.string(),
  messages: z.array(ConversationMessageSchema),
  decisions: z.array(ToolCallDecidedSchema),
  hookRuns: z.array(HookRunsEventSchema),
  subagentEvents: z.array(AgentEventSchema).optional(),
  prompts: z.array(PromptStartSchema).optional(),
});
export type ResumedSession = z.infer<typeof ResumedSessionSchema>;

export const ChatChannels = {
  sendMessage: {
    request: z.object({ text: z.string().trim().min(1).max(200_000), agentMode: AgentModeSchema.optional() }).strict(),
    response: z.object({ runId: z.string(), sessionId: z.string() }),
  },
  cancelRun: { request: none, response: z.object({ cancelled: z.boolean() }) },
  answerApproval: {
    request: z
      .object({
        requestId: z.string().min(1).max(200),
        decision: ApprovalChoiceSchema,
        note: z.string().max(10_000).optional(),
        rule: z.string().trim().min(1).max(2_000).optional(),
      })
      .strict(),
    response: z.object({ accepted: z.boolean() }),
  },
  getChatState: { request: none, response: ChatStateSchema },
  /** The open project's earlier sessions, newest first. */
  listSessions: { request: none, response: z.object({ sessions: z.array(SessionSummarySchema) }) },
  /** Continues an earlier session of the open project; answers its conversation. */
  resumeSession: {
    request: z.object({ id: z.string().min(1).max(100) }).strict(),
    response: ResumedSessionSchema,
  },
  /** Ends the open session; the next message starts a new one. */
  newSession: { request: none, response: z.object({ ok: z.literal(true) }) },
  /** Names a session of the open project (an empty title goes back to its first prompt). */
  renameSession: {
    request: z.object({ id: z.string().min(1).max(100), title: z.string().trim().max(200) }).strict(),
    response: z.object({ ok: z.literal(true) }),
  },
  /** Moves a session of the open project to the trash (the open one ends first); `restoreSession` brings it back. */
  deleteSession: {
    request: z.object({ id: z.string().min(1).max(100) }).strict(),
    response: z.object({ deleted: z.boolean() }),
  },
  restoreSession: {
    request: z.object({ id: z.string().min(1).max(100) }).strict(),
    response: z.object({ restored: z.boolean() }),
  },
} as const;
