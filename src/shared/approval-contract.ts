import { z } from 'zod';
import { CallPositionSchema, ToolPreviewSchema } from './agent-events';
import { DecisionSourceSchema, SandboxKindSchema } from './permission';

/**
 * A person's answer to a call the engine asks about, in every shell: the approval dialog (desktop and browser),
 * the TTY prompt, `gatehouse rpc`'s `approve` command and the SDK's `approve` callback. Defined beside the decision
 * shapes (permission.ts), which the call's decision event (agent-events.ts) records it with.
 */
export { ApprovalChoiceSchema, type ApprovalChoice } from './permission';

/**
 * A call the engine asks about, as main hands it to a shell's approver (TTY prompt, RPC client, SDK callback, the
 * app's dialog). Each shell's event adds its own framing to this one shape.
 */
export const ApprovalRequestSchema = z.object({
  requestId: z.string().min(1),
  runId: z.string().min(1),
  /** The model's tool_use id. */
  callId: z.string().optional(),
  tool: z.string(),
  input: z.unknown(),
  /** The unified diff a write/edit would make, or why its content cannot be shown. */
  preview: ToolPreviewSchema.optional(),
  /** The call's place among the model's calls of its turn. */
  position: CallPositionSchema.optional(),
  /** The sub-agent that made the call (the approval names it); absent: the session's own agent. */
  agent: z.object({ id: z.string(), name: z.string() }).optional(),
  /** Why the engine asks, and which stage did. */
  reason: z.string(),
  source: DecisionSourceSchema,
  /** The rules "Allow for session" / "Always allow" would add. */
  suggestedRules: z.array(z.string()),
  /** A command: the sandbox it runs in if the person allows it (a person's allow gets the project-writable one). */
  sandbox: SandboxKindSchema.optional(),
  /**
   * Only "Allow once" and "Deny" are offered: a command to run outside the OS sandbox, a write whose content
   * cannot be previewed (`preview.kind` is `unpreviewable`), a call an ask rule asks about (no allow rule could
   * override it; the reason names the rule), or a call no rule could be suggested for (an unreadable command such
   * as `curl … | sh`: `suggestedRules` is empty). main counts a session/always answer once and never stores a rule
   * for it.
   */
  onceOnly: z.boolean().optional(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>;
