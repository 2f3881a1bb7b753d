import { GatehouseError } from '../../../shared/errors';
import { modelConfigSources, resolveModelConfig } from '../agent-runs/model-config';
import type { ModelConfig } from '../agent-runs/model-config';
import { readUserModelSettings } from '../agent-runs/model-settings';

export interface ChatModelSources {
  configDir: string;
  env: NodeJS.ProcessEnv;
  /** The desktop's encrypted key store (null elsewhere, or when it holds none). */
  storedKey?: () => string | null;
}

/**
 * The chat's model config as of now (read again for every message, so a key or model saved on the Settings page
 * applies to the next one): the user's own settings only, never a project's, by resolveModelConfig's precedence.
 * No key: an error that also names a malformed `model:` block.
 */
export async function currentModelConfig(sources: ChatModelSources): Promise<ModelConfig> {
  const modelSettings = await readUserModelSettings(sources.configDir);
  try {
    return resolveModelConfig(sources.env, {}, modelSettings.settings, sources.storedKey?.() ?? null);
  } catch (err) {
    if (modelSettings.warnings.length === 0) throw err;
    throw new GatehouseError(
      'BAD_REQUEST',
      `${err instanceof Error ? err.message : String(err)} (${modelSettings.warnings.join('; ')})`,
    );
  }
}

/** Whether a key is there for the chat (the same precedence; the key itself stays here). */
export async function hasModelKey(sources: ChatModelSources): Promise<boolean> {
  const { settings } = await readUserModelSettings(sources.configDir);
  return modelConfigSources(sources.env, {}, settings, sources.storedKey?.() ?? null).apiKey !== null;
}
