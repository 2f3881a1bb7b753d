import { isMap, isScalar } from 'yaml';
import {
  CheckpointSettingsBlockSchema,
  type CheckpointSettingsValues,
} from '../../../shared/checkpoint-settings-contract';
import { GatehouseError } from '../../../shared/errors';
import { editSettingsDocument } from '../settings/settings-document';
import { userSettingsFile } from '../settings/settings-locations';
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
 * A file that does not parse is reported and the defaults apply. The schema is the Settings page's too.
 */
export interface CheckpointSettings extends CheckpointSettingsValues {
  problem: string | null;
}

export const CHECKPOINT_DEFAULTS: CheckpointSettingsValues = {
  enabled: true,
  maxFileBytes: 10 * 1024 * 1024,
  maxFiles: 50_000,
  retentionDays: 30,
};

/** Why `block` is not a valid `checkpoints:` block ("checkpoints.KEY: reason"), or null when it is. */
function blockProblem(block: unknown): string | null {
  const parsed = CheckpointSettingsBlockSchema.nullish().safeParse(block);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return `${['checkpoints', ...(issue?.path.map(String) ?? [])].join('.')}: ${issue?.message ?? 'invalid'}`;
}

export async function readCheckpointSettings(configDir: string): Promise<CheckpointSettings> {
  const read = await readUserSettingsYamlAsync(configDir);
  if (read.problem) return { ...CHECKPOINT_DEFAULTS, problem: read.problem };
  const block = settingsBlock(read.value, 'checkpoints');
  const problem = blockProblem(block);
  if (problem) return { ...CHECKPOINT_DEFAULTS, problem: `${read.file}: ${problem}` };
  return { ...CHECKPOINT_DEFAULTS, ...CheckpointSettingsBlockSchema.nullish().parse(block), problem: null };
}

/**
 * Writes every value into the `checkpoints:` block of the user's settings.yaml: one atomic write under the file's
 * lock, comments and other keys kept, mode 0600. A block that is malformed now (wrong type, unknown key, not a
 * mapping) or a file that does not parse is refused with the reason and left as it is: never overwritten silently.
 */
export async function saveCheckpointSettings(configDir: string, values: CheckpointSettingsValues): Promise<void> {
  const file = userSettingsFile(configDir);
  try {
    await editSettingsDocument(
      file,
      (doc) => {
        const node = doc.get('checkpoints', true);
        const empty = node === undefined || node === null || (isScalar(node) && node.value === null);
        const problem = empty
          ? null
          : isMap(node)
            ? blockProblem(node.toJS(doc) as unknown)
            : 'checkpoints: not a mapping';
        if (problem) throw new GatehouseError('BAD_REQUEST', `${file}: ${problem}; fix it there first`);
        if (empty) doc.set('checkpoints', doc.createNode({}));
        for (const key of ['enabled', 'maxFileBytes', 'maxFiles', 'retentionDays'] as const)
          doc.setIn(['checkpoints', key], values[key]);
        return true;
      },
      { mode: 0o600 },
    );
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new GatehouseError(
      err instanceof GatehouseError ? err.code : 'BAD_REQUEST',
      `${message}; nothing was changed`,
    );
  }
}
