import { z } from 'zod';
import { ErrorCodeSchema, RpcErrorSchema } from './errors';
import { StopReasonSchema, TokenUsageSchema } from './conversation';
import { ApprovalChoiceSchema, DecisionSourceSchema, SandboxKindSchema } from './permission';
import { ToolSafetySchema } from './tools';

/**
 * What the agent runner in the worker reports while it works: streamed to main (transcript, CLI, RPC) and on to the
 * UI. A discriminated union on `type`; every consumer validates it with `AgentEventSchema`.
 */

const turn = z.number().int().min(1);
const callId = z.string().min(1);
/** The sub-agent that made a call (its id from `subagent_started`); absent: the session's own agent. */
const agent = z.string().min(1).max(100).optional();

/**
 * What a write/edit would change, for the approval: the unified diff, or, when the content cannot be shown (it
 * replaces a binary file, or the file or the new content is over the preview limit), that fact and the sizes.
 */
export const ToolPreviewSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('diff'),
    path: z.string(),
    unifiedDiff: z.string(),
    /** A stored preview over its size keeps its first hunks: the diff lines it left out. Absent: none. */
    omittedLines: z.number().int().positive().optional(),
  }),
  z.object({
    kind: z.literal('unpreviewable'),
    path: z.string(),
    reason: z.enum(['binary', 'too-large']),
    /** The size of the file it replaces (null: a new file). */
    currentBytes: z.number().int().nonnegative().nullable(),
    /** The size of the new content (null: not known before the edit runs). */
    newBytes: z.number().int().nonnegative().nullable(),
  }),
]);
export type ToolPreview = z.infer<typeof ToolPreviewSchema>;

const bytes = (n: number): string => `${n.toLocaleString('en-US')} byte${n === 1 ? '' : 's'}`;

/** What an unpreviewable write does, in one sentence (the approval shows it prominently; the path is shown apart). */
export function unpreviewableSummary(preview: Extract<ToolPreview, { kind: 'unpreviewable' }>): string {
  const current =
    preview.currentBytes === null
      ? 'creates a new file'
      : preview.reason === 'binary'
        ? `replaces a binary file of ${bytes(preview.currentBytes)}`
        : `replaces a file of ${bytes(preview.currentBytes)}`;
  const next = preview.newBytes === null ? '' : ` with ${bytes(preview.newBytes)} of new content`;
  const why = preview.reason === 'binary' ? 'binary content cannot be shown' : 'it is too large to show';
  return `This write ${current}${next}, and ${why}: you cannot see what it changes.`;
}

/** Where a call sits among the tool calls the model sent in one turn (1-based): "call 2 of 3". */
export const CallPositionSchema = z.object({ index: z.number().int().min(1), count: z.number().int().min(1) });
export type CallPosition = z.infer<typeof CallPositionSchema>;

/** The person's answer to a call the engine asked about, as main applied it. */
const DecisionAnswerSchema = z.object({
  /** What the person chose. A write they cannot see, or a command outside the sandbox, counts once whatever they chose. */
  choice: ApprovalChoiceSchema,
  /** The allow rules the answer added (session: for this session; always: also in the project's local settings). */
  rules: z.array(z.string()).optional(),
  /** A deny's note to the model. */
  note: z.string().optional(),
});
export type DecisionAnswer = z.infer<typeof DecisionAnswerSchema>;

/** One hook run (Claude Code-compatible hooks): which hook, how long, what it said. Shown on the tool card. */
const HookRunSchema = z.object({
  event: z.string(),
  /** The hook's settings source: policy, user, project or local. */
  source: z.string(),
  file: z.string(),
  command: z.string(),
  durationMs: z.number().nonnegative(),
  outcome: z.enum(['allow', 'deny', 'ask', 'block', 'none', 'failed']),
  message: z.string(),
});
export type HookRunWire = z.infer<typeof HookRunSchema>;

/** The auto-mode classifier's answer about one call (main asked it; the worker never can). */
const ClassifierVerdictSchema = z.object({
  decision: z.enum(['allow', 'block']),
  reason: z.string(),
  model: z.string(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  latencyMs: z.number().nonnegative(),
});
export type ClassifierVerdictWire = z.infer<typeof ClassifierVerdictSchema>;

/** What auto mode's classifier cost in one run: calls, answers, tokens and time spent waiting for it. */
export const AutoRunStatsSchema = z.object({
  calls: z.number().int().nonnegative(),
  allowed: z.number().int().nonnegative(),
  blocked: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  latencyMs: z.number().nonnegative(),
});
export type AutoRunStats = z.infer<typeof AutoRunStatsSchema>;

/**
 * The one decision of one call, emitted once by whoever decided it: main's permission gate for every call the
 * engine judged (before main answers the worker, so it comes before the tool's output), the worker only for calls
 * main never saw (`schema`: a malformed input; `internal`: the check failed; `cancelled`). `allow`, `source`,
 * `rule` and `reason` are the final decision (`source`: a permission-engine source such as `user` or `approval`).
 */
export const ToolCallDecidedSchema = z.object({
  type: z.literal('tool_call_decided'),
  id: callId,
  agent,
  allow: z.boolean(),
  source: z.string().min(1),
  reason: z.string(),
  rule: z.string().nullable(),
  /** An allowed run_command: which sandbox it runs in (main's word, see SandboxKindSchema). */
  sandbox: SandboxKindSchema.optional(),
  /** The engine's (or the sandbox gate's) first verdict when it was `ask`. Absent: it decided by itself. */
  asked: z.object({ source: DecisionSourceSchema, reason: z.string(), rule: z.string().nullable() }).optional(),
  /** The person's answer to that ask. Absent: nobody answered (no person, a cancel): `reason` says why it was denied. */
  answer: DecisionAnswerSchema.optional(),
  /** The PreToolUse hooks that ran for this call. Absent: none ran. */
  hooks: z.array(HookRunSchema).optional(),
  /** Auto mode: what the classifier answered about this call. Absent: it was not asked. */
  classifier: ClassifierVerdictSchema.optional(),
  /**
   * A write's preview as the call was decided (asked or not): the card keeps it after the run and in the stored
   * session, cut to a bounded size (src/main/core/session/stored-preview.ts). Absent: not a write, or no preview.
   */
  preview: ToolPreviewSchema.optional(),
});
export type ToolCallDecided = z.infer<typeof ToolCallDecidedSchema>;

/**
 * Hooks of an event outside the permission check ran: PostToolUse (`id`: the call, shown on its card), or
 * SessionStart, UserPromptSubmit and Stop (a line in the chat). Stored in the transcript like the decisions.
 */
export const HookRunsEventSchema = z.object({
  type: z.literal('hook_runs'),
  event: z.enum(['PostToolUse', 'SessionStart', 'UserPromptSubmit', 'Stop']),
  /** PostToolUse: the call the hooks ran after. */
  id: callId.optional(),
  /** The conversation's length when they ran: where a reloaded chat shows a line that belongs to no call. */
  at: z.number().int().nonnegative(),
  hooks: z.array(HookRunSchema).min(1),
});
export type HookRunsEvent = z.infer<typeof HookRunsEventSchema>;

/** How a run ended. */
export const AgentRunStatusSchema = z.enum(['completed', 'max_turns', 'cancelled', 'error']);
export type AgentRunStatus = z.infer<typeof AgentRunStatusSchema>;

/** A finished run's outcome, the same in the worker's answer, the app's `runFinished` and the rpc `result`. */
export const RunOutcomeSchema = z.object({
  status: AgentRunStatusSchema,
  /** The text of the model's last answer. */
  finalText: z.string(),
  usage: TokenUsageSchema,
  turns: z.number().int().nonnegative(),
  error: RpcErrorSchema.optional(),
});

export const AgentEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('turn_started'), turn }),
  z.object({ type: z.literal('text_delta'), turn, text: z.string() }),
  z.object({
    type: z.literal('tool_call_started'),
    turn,
    id: callId,
    agent,
    name: z.string(),
    input: z.unknown(),
    safety: ToolSafetySchema.nullable(),
    preview: ToolPreviewSchema.optional(),
  }),
  ToolCallDecidedSchema,
  HookRunsEventSchema,
  z.object({ type: z.literal('tool_call_output'), id: callId, agent, chunk: z.string() }),
  /** Auto mode fell back to manual approval for the rest of the session (main only). */
  z.object({
    type: z.literal('auto_fallback'),
    reason: z.string(),
    consecutive: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
  /** What auto mode's classifier cost in this run, before its end (main only; absent when it was never asked). */
  z.object({ type: z.literal('auto_usage'), stats: AutoRunStatsSchema }),
  z.object({
    type: z.literal('tool_call_finished'),
    id: callId,
    agent,
    /** Whether the tool actually ran (false for denied, malformed or refused calls). */
    ran: z.boolean(),
    isError: z.boolean(),
    content: z.string(),
    exitCode: z.number().int().nullable().optional(),
    /**
     * run_command: the rows of `content` (the output as a terminal shows it when the command ended) with their
     * colours, as ANSI text for the card's terminal view. Never sent to the model, not kept in the transcript.
     */
    terminal: z.string().optional(),
    durationMs: z.number().nonnegative(),
  }),
  /** load_skill loaded a skill (`id`: its call): from now on in this run only its allowed tools (absent: all) run. */
  z.object({
    type: z.literal('skill_loaded'),
    id: callId,
    agent,
    name: z.string(),
    allowedTools: z.array(z.string()).optional(),
  }),
  /**
   * A `task` call (`id`) started a sub-agent: its calls carry `agent` = `agentId`. `backgroundAsk`: what its asks
   * become when nobody watches it (`background`); a foreground sub-agent's asks go to the person, labelled.
   */
  z.object({
    type: z.literal('subagent_started'),
    id: callId,
    agentId: z.string().min(1).max(100),
    name: z.string(),
    background: z.boolean(),
    agentMode: z.enum(['chat', 'plan', 'do']),
    tools: z.array(z.string()).optional(),
    backgroundAsk: z.enum(['deny', 'continue']).optional(),
  }),
  z.object({
    type: z.literal('subagent_finished'),
    id: callId,
    agentId: z.string().min(1).max(100),
    status: AgentRunStatusSchema,
    turns: z.number().int().nonnegative(),
    usage: TokenUsageSchema,
  }),
  z.object({
    type: z.literal('turn_usage'),
    turn,
    stopReason: StopReasonSchema,
    usage: TokenUsageSchema,
    total: TokenUsageSchema,
  }),
  z.object({
    type: z.literal('context_trimmed'),
    turn,
    trimmedResults: z.number().int().min(1),
    trimmedChars: z.number().int().nonnegative(),
  }),
  z.object({
    type: z.literal('done'),
    status: z.enum(['completed', 'max_turns']),
    turns: z.number().int().nonnegative(),
    usage: TokenUsageSchema,
    message: z.string(),
  }),
  z.object({
    type: z.literal('error'),
    code: ErrorCodeSchema,
    message: z.string(),
    turns: z.number().int().nonnegative(),
    usage: TokenUsageSchema,
  }),
  z.object({
    type: z.literal('cancelled'),
    turns: z.number().int().nonnegative(),
    usage: TokenUsageSchema,
    message: z.string(),
  }),
]);
export type AgentEvent = z.infer<typeof AgentEventSchema>;
