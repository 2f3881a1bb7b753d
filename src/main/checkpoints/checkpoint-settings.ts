import { parseDocument } from 'yaml';
import { z } from 'zod';
import { isMissing, MAX_SETTINGS_BYTES, readFailure, readRegularFile } from '../fs/read-regular-file';
import { userSettingsFile } from '../settings/settings-locations';

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
const FileSchema = z.looseObject({ checkpoints: BlockSchema.nullish() });

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
  const file = userSettingsFile(configDir);
  const fallback = (problem: string | null): CheckpointSettings => ({ ...CHECKPOINT_DEFAULTS, problem });
  let text: string;
  try {
    text = await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' });
  } catch (err) {
    return fallback(isMissing(err) ? null : `${file}: ${readFailure(err)}`);
  }
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors[0]) return fallback(`${file}: ${doc.errors[0].message.split('\n')[0] ?? 'invalid YAML'}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return fallback(`${file}: ${(err as Error).message}`);
  }
  if (value === null || value === undefined) return fallback(null);
  const parsed = FileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fallback(`${file}: ${issue?.path.map(String).join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}`);
  }
  return { ...CHECKPOINT_DEFAULTS, ...(parsed.data.checkpoints ?? {}), problem: null };
}
