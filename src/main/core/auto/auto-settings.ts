/**
 * The `auto:` block of the user's own settings (`<config dir>/settings.yaml`), for auto mode's classifier:
 *
 *   auto:
 *     classifierModel: claude-haiku-4-5   # a small model by default
 *     timeoutSeconds: 30                  # no answer in time counts as a block
 *
 * Read from the user file only, never from a project's settings: a repository must not pick the model that judges
 * its own calls. A block (or file) that does not parse is reported and the defaults apply.
 */
import { z } from 'zod';
import { ModelNameSchema } from '../../../shared/settings-contract';
import { readUserSettingsYamlAsync, settingsBlock } from '../settings/user-settings-yaml';

const DEFAULT_CLASSIFIER_MODEL = 'claude-haiku-4-5';
const DEFAULT_CLASSIFIER_TIMEOUT_SECONDS = 30;

const AutoSettingsSchema = z.strictObject({
  classifierModel: ModelNameSchema.optional(),
  timeoutSeconds: z.number().int().min(1).max(600).optional(),
});

export interface AutoSettings {
  classifierModel: string;
  /** `auto.classifierModel` as saved (null: unset, or the block was ignored). */
  saved: string | null;
  timeoutMs: number;
  /** Why the block was ignored, naming the file; null when fine. */
  warning: string | null;
}

/** The user's `auto:` settings with the defaults filled in. Never throws. */
export async function readAutoSettings(configDir: string): Promise<AutoSettings> {
  const defaults = {
    classifierModel: DEFAULT_CLASSIFIER_MODEL,
    timeoutMs: DEFAULT_CLASSIFIER_TIMEOUT_SECONDS * 1000,
    saved: null,
  };
  const { file, value, problem } = await readUserSettingsYamlAsync(configDir);
  if (problem) return { ...defaults, warning: `${problem} (auto settings ignored)` };
  const block = settingsBlock(value, 'auto');
  if (block === null || block === undefined) return { ...defaults, warning: null };
  const parsed = AutoSettingsSchema.safeParse(block);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ['auto', ...(issue?.path ?? []).map(String)].join('.');
    return {
      ...defaults,
      warning: `${file}: ${where}: ${issue?.message ?? 'invalid settings'} (auto settings ignored)`,
    };
  }
  return {
    classifierModel: parsed.data.classifierModel ?? defaults.classifierModel,
    saved: parsed.data.classifierModel ?? null,
    timeoutMs: (parsed.data.timeoutSeconds ?? DEFAULT_CLASSIFIER_TIMEOUT_SECONDS) * 1000,
    warning: null,
  };
}
