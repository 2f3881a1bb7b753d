import { z } from 'zod';
import { DecisionKindSchema, SandboxKindSchema } from './permission';

/**
 * The audit log as the renderer's "Audit log" view reads it: the open project's decisions, newest first. Every
 * line was redacted when it was written; the export is redacted again. Spread into `ApiChannels` (api.ts).
 */

export const AuditRecordSchema = z.object({
  time: z.string(),
  session: z.string(),
  project: z.string().optional(),
  tool: z.string(),
  /** The sub-agent that made the call (its id); absent: the session's own agent. */
  agent: z.string().optional(),
  /** For an MCP tool: its server and tool. */
  mcp: z.object({ server: z.string(), tool: z.string() }).optional(),
  /** The call's input as the log keeps it: paths and commands, contents reduced to sizes. */
  input: z.record(z.string(), z.unknown()),
  decision: DecisionKindSchema,
  /** The engine's stage (`user`, `hard`, …) or `approval` when a person answered. */
  source: z.string(),
  rule: z.string().nullable(),
  reason: z.string(),
  /** An allowed run_command: the sandbox it ran in. Absent in older lines and for every other decision. */
  sandbox: SandboxKindSchema.optional(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;

/** What happened to the project's checkpoints (src/main/core/checkpoints): a restore, or all of them deleted. */
export const CheckpointAuditSchema = z.discriminatedUnion('kind', [
  z.object({
    time: z.string(),
    kind: z.literal('checkpoint-restore'),
    session: z.string(),
    project: z.string(),
    checkpoint: z.string(),
    restored: z.array(z.string()),
    /** Changed outside the agent and not confirmed: left as they were. */
    kept: z.array(z.string()),
    /** The checkpoint taken just before the restore (its undo). */
    undo: z.string().nullable(),
  }),
  z.object({
    time: z.string(),
    kind: z.literal('checkpoints-deleted'),
    project: z.string(),
    /** How many the index listed (null: it could not be read). */
    deleted: z.number().int().nonnegative().nullable(),
  }),
]);
export type CheckpointAudit = z.infer<typeof CheckpointAuditSchema>;

export const AuditChannels = {
  /** The open project's decisions, newest first (at most `limit`). */
  listAudit: {
    request: z.object({ limit: z.number().int().min(1).max(10_000).optional() }).strict(),
    response: z.object({
      file: z.string(),
      entries: z.array(AuditRecordSchema),
      /** More matching lines than `limit`: the oldest were left out. */
      truncated: z.boolean(),
      /** Lines that could not be read (not JSON, or not an audit line). */
      skipped: z.number().int().nonnegative(),
      /** The project's checkpoint restores and deletions, newest first (at most 200). */
      checkpoints: z.array(CheckpointAuditSchema),
    }),
  },
  /** The given lines of the open project's log as JSON lines, every string redacted again and the home folder as `~`. */
  exportAudit: {
    request: z.object({ entries: z.array(AuditRecordSchema).max(10_000) }).strict(),
    response: z.object({ fileName: z.string(), text: z.string() }),
  },
} as const;
