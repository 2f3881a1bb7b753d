import { z } from 'zod';

/**
 * Checkpoint settings on the Settings page: the `checkpoints:` block of the user's own settings.yaml (one schema for
 * the file, the page and main), how much disk the open project's checkpoints use, and deleting them. The channels are
 * spread into `ApiChannels` (api.ts).
 */

const MAX_CHECKPOINT_FILE_BYTES = 1024 ** 3;

/** Every value of the block, as the page saves it. */
export const CheckpointSettingsValuesSchema = z.strictObject({
  /** A checkpoint before each prompt that may change files. */
  enabled: z.boolean(),
  /** Larger files are left out of a checkpoint (and listed as left out). */
  maxFileBytes: z
    .number()
    .int('a whole number of bytes')
    .positive('more than 0')
    .max(MAX_CHECKPOINT_FILE_BYTES, 'at most 1 GiB (1024 MiB)'),
  /** A project with more files than this gets no checkpoint (said, not silent). */
  maxFiles: z.number().int('a whole number').positive('more than 0').max(10_000_000, 'at most 10,000,000'),
  /** Older checkpoints are deleted. */
  retentionDays: z.number().positive('more than 0').max(36_500, 'at most 36,500 days (100 years)'),
});
export type CheckpointSettingsValues = z.infer<typeof CheckpointSettingsValuesSchema>;

/** The block as settings.yaml may hold it: any of the values (the defaults fill in the rest), nothing else. */
export const CheckpointSettingsBlockSchema = CheckpointSettingsValuesSchema.partial();

const CheckpointSettingsViewSchema = z.object({
  /** The values in effect (the saved ones over the defaults). */
  settings: CheckpointSettingsValuesSchema,
  /** Why the block (or the file) was ignored, with the file and key; saving is refused until it is fixed. */
  problem: z.string().nullable(),
  settingsFile: z.string(),
  /** The open project (null: none) and its checkpoints. */
  project: z.string().nullable(),
  usage: z
    .object({
      /** Bytes on disk of the project's shadow repository and index. */
      bytes: z.number().int().nonnegative(),
      /** How many checkpoints the index lists (null: the index cannot be read, see `problem`). */
      checkpoints: z.number().int().nonnegative().nullable(),
      folder: z.string(),
      problem: z.string().nullable(),
    })
    .nullable(),
});
export type CheckpointSettingsView = z.infer<typeof CheckpointSettingsViewSchema>;

const none = z.object({}).strict();

export const CheckpointSettingsChannels = {
  getCheckpointSettings: { request: none, response: CheckpointSettingsViewSchema },
  /** Writes every value into `checkpoints:` of the user's settings.yaml; refused while the block is malformed. */
  saveCheckpointSettings: { request: CheckpointSettingsValuesSchema, response: CheckpointSettingsViewSchema },
  /** Deletes every checkpoint of the open project (its shadow repository and index). */
  deleteProjectCheckpoints: {
    request: none,
    response: z.object({ deleted: z.number().int().nonnegative().nullable(), view: CheckpointSettingsViewSchema }),
  },
} as const;
