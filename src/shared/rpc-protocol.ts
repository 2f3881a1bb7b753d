import { z } from 'zod';
import { ApprovalChoiceSchema, ApprovalRequestSchema } from './approval-contract';
import { AgentEventSchema, AutoRunStatsSchema, RunOutcomeSchema } from './agent-events';
import { CheckpointDiffSchema, CheckpointEntrySchema, RestoreResultSchema } from './checkpoint-contract';
import { ErrorCodeSchema } from './errors';
import { AgentModeSchema } from './permission';

/**
 * `gatehouse rpc`: JSON Lines over stdio (one JSON value per LF-terminated line; a CR is never a separator).
 * Commands come in on stdin, events go out on stdout. `gatehouse run --output json` prints the same events.
 */

const id = z.string().min(1).max(200);

export const RpcCommandSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('prompt'),
    id,
    text: z.string().min(1).max(1_000_000),
    agentMode: AgentModeSchema.optional(),
    /** do mode: the confirmed plan. */
    plan: z.string().max(1_000_000).optional(),
    maxTurns: z.number().int().min(1).max(1000).optional(),
  }),
  z.object({
    type: z.literal('approve'),
    requestId: id,
    decision: ApprovalChoiceSchema,
    /** deny: why, told to the model. */
    note: z.string().max(10_000).optional(),
    /** session/always: the rules to add (default: the suggested ones). */
    rules: z.array(z.string().max(1000)).max(20).optional(),
  }),
  /** Cancels the running prompt. */
  z.object({ type: z.literal('cancel') }),
  /**
   * The project's checkpoints: `list`, `diff` (what restoring `checkpoint` would change) or `restore` it (refused
   * while a prompt runs; files changed outside the agent are kept unless `overwriteExternal`). Answered by a
   * `checkpoints` event with the same `id`, or an `error`.
   */
  z.object({
    type: z.literal('checkpoints'),
    id,
    action: z.enum(['list', 'diff', 'restore']),
    checkpoint: z.string().min(4).max(100).optional(),
    overwriteExternal: z.boolean().optional(),
  }),
]);
export type RpcCommand = z.infer<typeof RpcCommandSchema>;

export const RpcEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ready'),
    sessionId: z.string(),
    projectRoot: z.string(),
    version: z.string(),
    workerPid: z.number().int().nullable(),
    resumed: z.boolean(),
    /** Transcript lines of a resumed session that could not be read (skipped). */
    problems: z.array(z.string()),
  }),
  /**
   * One event of the running agent. Each tool call has exactly one `tool_call_decided`, after its
   * `tool_call_started` and before its output: the final decision, what the engine asked first (`asked`) and the
   * person's answer (`answer`: once / session / always / deny, with the rules it added).
   */
  z.object({ type: z.literal('agent'), promptId: id, runId: z.string(), event: AgentEventSchema }),
  /** A call the engine asks about: answer it with an `approve` command (`onceOnly`: only "once" or "deny"). */
  ApprovalRequestSchema.extend({ type: z.literal('approval_request'), promptId: id, requestId: id }),
  /** An approval request that no longer waits (the run was cancelled or the worker died): it counts as denied. */
  z.object({ type: z.literal('approval_closed'), requestId: id, reason: z.string() }),
  z.object({
    type: z.literal('result'),
    promptId: id,
    sessionId: z.string(),
    runId: z.string(),
    ...RunOutcomeSchema.shape,
    /** Auto mode: what the classifier cost in this run (absent when it was not asked). */
    auto: AutoRunStatsSchema.optional(),
  }),
  /**
   * The answer to an `approve` or `cancel` command that did its work (or, for `cancel`, found nothing to cancel):
   * every command gets an answer (`prompt`: its `result`; anything refused: an `error`).
   */
  z.object({
    type: z.literal('ack'),
    command: z.enum(['approve', 'cancel']),
    line: z.number().int().min(1),
    requestId: id.optional(),
    /** cancel: the prompt that was running (absent: nothing was running). */
    promptId: id.optional(),
    message: z.string(),
  }),
  /** The answer to a `checkpoints` command: exactly one of the three, by its action. */
  z.object({
    type: z.literal('checkpoints'),
    id,
    list: z.array(CheckpointEntrySchema).optional(),
    diff: CheckpointDiffSchema.optional(),
    restore: RestoreResultSchema.optional(),
  }),
  /** A malformed command line (`line` is its 1-based number) or a failure outside any run. */
  z.object({
    type: z.literal('error'),
    code: ErrorCodeSchema,
    message: z.string(),
    line: z.number().int().min(1).optional(),
    promptId: id.optional(),
    /** The `checkpoints` command it answers. */
    id: id.optional(),
  }),
]);
export type RpcEvent = z.infer<typeof RpcEventSchema>;
