/**
 * The `model:` block of the user's own settings (`<config dir>/settings.yaml`):
 *
 *   model:
 *     name: claude-sonnet-5-5
 *     baseURL: https://proxy.example.com
 *     apiKey: sk-...
 *
 * Read from the user file only, never from a project's settings: a repository must not redirect your key to its
 * server or pick the model you pay for. A block (or file) that does not parse is reported and ignored.
 */
import { z } from 'zod';
import { BaseUrlSchema, ModelNameSchema } from '../../../shared/settings-contract';
import { readUserSettingsYamlAsync, settingsBlock } from '../../core/settings/user-settings-yaml';
import type { ModelSettings } from './model-config';

const ModelSettingsSchema = z.strictObject({
  name: ModelNameSchema.optional(),
  baseURL: BaseUrlSchema.optional(),
  apiKey: z.string().trim().min(1).max(1000).optional(),
});

export interface UserModelSettings {
  settings: ModelSettings;
  /** Why the settings were ignored, naming the file (for a warning, never fatal). */
  warnings: string[];
}

const IGNORED = '(model settings ignored)';

/** The user's `model:` settings; a missing file or block is empty. Never throws. */
export async function readUserModelSettings(configDir: string): Promise<UserModelSettings> {
  const { file, value, problem } = await readUserSettingsYamlAsync(configDir);
  if (problem) return { settings: {}, warnings: [`${problem} ${IGNORED}`] };
  const block = settingsBlock(value, 'model');
  if (block === null || block === undefined) return { settings: {}, warnings: [] };
  const parsed = ModelSettingsSchema.safeParse(block);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ['model', ...(issue?.path ?? []).map(String)].join('.');
    return { settings: {}, warnings: [`${file}: ${where}: ${issue?.message ?? 'invalid settings'} ${IGNORED}`] };
  }
  return { settings: parsed.data, warnings: [] };
}
