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
import fs from 'node:fs';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { userSettingsFile } from '../settings/settings-locations';
import type { ModelSettings } from './model-config';

export const ModelSettingsSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  apiKey: z.string().trim().min(1).max(1000).optional(),
});

export interface UserModelSettings {
  settings: ModelSettings;
  /** Why the settings were ignored, naming the file (for a warning, never fatal). */
  warnings: string[];
}

const IGNORED = '(model settings ignored)';

/** The user's `model:` settings; a missing file or block is empty. Never throws. */
export function readUserModelSettings(configDir: string): UserModelSettings {
  const file = userSettingsFile(configDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, warnings: [] };
    return { settings: {}, warnings: [`${file}: ${err instanceof Error ? err.message : String(err)} ${IGNORED}`] };
  }
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError) return { settings: {}, warnings: [`${file}: ${yamlError.message.split('\n')[0] ?? 'invalid YAML'} ${IGNORED}`] };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { settings: {}, warnings: [`${file}: ${err instanceof Error ? err.message : String(err)} ${IGNORED}`] };
  }
  if (typeof value !== 'object' || value === null || !('model' in value)) return { settings: {}, warnings: [] };
  const block = (value as { model: unknown }).model;
  if (block === null || block === undefined) return { settings: {}, warnings: [] };
  const parsed = ModelSettingsSchema.safeParse(block);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ['model', ...(issue?.path ?? []).map(String)].join('.');
    return { settings: {}, warnings: [`${file}: ${where}: ${issue?.message ?? 'invalid settings'} ${IGNORED}`] };
  }
  return { settings: parsed.data, warnings: [] };
}
