import { z } from 'zod';
import { ResumedSessionSchema } from './chat-contract';
import { CheckpointDiffSchema, CheckpointEntrySchema, RestoreResultSchema } from './checkpoint-contract';

/**
 * "Rewind to here" on one of the person's messages in the chat: put the project's files back as they were before
 * that message (its checkpoint), continue the conversation from just before it, or both. The channels are spread into
 * `ApiChannels` (api.ts).
 */

const runId = z.string().min(1).max(100);

const RewindPreviewSchema = z.object({
  runId: z.string(),
  /** The message being rewound (offered again in the composer after a rewind of the conversation). */
  prompt: z.string(),
  /** The checkpoint taken before that message (null: none, see `filesUnavailable`). */
  checkpoint: CheckpointEntrySchema.nullable(),
  /** What a restore of the files would change, from now back to the checkpoint (null: no checkpoint). */
  diff: CheckpointDiffSchema.nullable(),
  /** Why the files cannot be rewound (no checkpoint: plan mode, checkpoints off, or it failed); null: they can. */
  filesUnavailable: z.string().nullable(),
});
export type RewindPreview = z.infer<typeof RewindPreviewSchema>;

const RewindResultSchema = z.object({
  /** The files put back (null: the files were not asked for). */
  restore: RestoreResultSchema.nullable(),
  /** The copy of the session that ends just before the message, now open (null: the conversation was not asked for). */
  session: ResumedSessionSchema.nullable(),
  prompt: z.string(),
});
export type RewindResult = z.infer<typeof RewindResultSchema>;

export const RewindChannels = {
  /** What rewinding to one of the open session's messages would do (changes nothing). */
  previewRewind: { request: z.object({ runId }).strict(), response: RewindPreviewSchema },
  /**
   * Rewinds to one of the open session's messages: its files (changed outside the agent: kept unless
   * `overwriteExternal`), its conversation (a copy of the session up to just before it opens; the session itself is
   * kept as it was), or both. Refused while a message runs.
   */
  rewind: {
    request: z
      .object({ runId, files: z.boolean(), conversation: z.boolean(), overwriteExternal: z.boolean() })
      .strict()
      .refine((r) => r.files || r.conversation, 'rewind the files, the conversation, or both'),
    response: RewindResultSchema,
  },
} as const;
