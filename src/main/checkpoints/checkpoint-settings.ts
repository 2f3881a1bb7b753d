import { z } from 'zod';
import { readUserSettingsYamlAsync, settingsBlock } from '../settings/user-settings-yaml';

/**
 * The `checkpoints:` block of the user's own settings (a project's settings cannot turn off the person's undo or
 * shorten how long it is kept):
 *
 *   checkpoints:
 *     enabled: true          # a checkpoint before each prompt that may change files
 *     maxFileBytes: 10485760 # larger files are left out (and listed as left out)
 *     maxFiles: 50000        # a project with more files than this gets no checkpoint (said, not silent)
 *     retentionDays: 30      # older checkpoints are deleted
 *
 * A file that does not parse is reported and the defaults apply.
 */
const BlockSchema = z.strictObject({
  enabled: z.boolean().optional(),
  maxFileBytes: z
    .number()
    .int()
    .positive()
    .max(1024 ** 3)
    .optional(),
  maxFiles: z.number().int().positive().max(10_000_000).optional(),
  retentionDays: z.number().positive().max(36_500).optional(),
});

export interface CheckpointSettings {
  enabled: boolean;
  maxFileBytes: number;
  maxFiles: number;
  retentionDays: number;
  problem: string | null;
}

export const CHECKPOINT_DEFAULTS: Omit<CheckpointSettings, 'problem'> = {
  enabled: true,
  maxFileBytes: 10 * 1024 * 1024,
  maxFiles: 50_000,
  retentionDays: 30,
};

export async function readCheckpointSettings(configDir: string): Promise<CheckpointSettings> {
  const read = await readUserSettingsYamlAsync(configDir);
  if (read.problem) return { ...CHECKPOINT_DEFAULTS, problem: read.problem };
  const parsed = BlockSchema.nullish().safeParse(settingsBlock(read.value, 'checkpoints'));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ['checkpoints', ...(issue?.path.map(String) ?? [])].join('.');
    return { ...CHECKPOINT_DEFAULTS, problem: `${read.file}: ${where}: ${issue?.message ?? 'invalid'}` };
  }
  return { ...CHECKPOINT_DEFAULTS, ...(parsed.data ?? {}), problem: null };
}
