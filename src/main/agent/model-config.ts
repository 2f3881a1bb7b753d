import { GatehouseError } from '../../shared/errors';

export const DEFAULT_MODEL = 'claude-sonnet-5-5';

export interface ModelConfig {
  model: string;
  provider: { apiKey: string; baseURL?: string };
}

/** The user settings' `model:` block (see model-settings.ts): the lowest-priority source. */
export interface ModelSettings {
  name?: string;
  baseURL?: string;
  apiKey?: string;
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The model and its credentials for a session. Model: explicit (`--model`) > ANTHROPIC_MODEL > settings
 * `model.name` > the default. Key: explicit > ANTHROPIC_API_KEY > settings `model.apiKey`. Base URL: explicit >
 * ANTHROPIC_BASE_URL > settings `model.baseURL`. `settings` comes from the user's own settings file only. The key
 * goes to the worker over the port only.
 */
export function resolveModelConfig(
  env: NodeJS.ProcessEnv,
  explicit: { model?: string; apiKey?: string; baseURL?: string } = {},
  settings: ModelSettings = {},
): ModelConfig {
  const apiKey = nonBlank(explicit.apiKey) ?? nonBlank(env.ANTHROPIC_API_KEY) ?? nonBlank(settings.apiKey);
  if (!apiKey) {
    throw new GatehouseError(
      'BAD_REQUEST',
      'no Anthropic API key: set ANTHROPIC_API_KEY, or model.apiKey in your user settings.yaml (or pass apiKey to createSession)',
    );
  }
  const baseURL = nonBlank(explicit.baseURL) ?? nonBlank(env.ANTHROPIC_BASE_URL) ?? nonBlank(settings.baseURL);
  const model = nonBlank(explicit.model) ?? nonBlank(env.ANTHROPIC_MODEL) ?? nonBlank(settings.name) ?? DEFAULT_MODEL;
  return { model, provider: { apiKey, ...(baseURL ? { baseURL } : {}) } };
}
