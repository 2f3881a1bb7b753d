import { GatehouseError } from '../../../shared/errors';

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

/** Where a value came from: the caller (`--model`, createSession), the environment, the desktop's encrypted store, the file. */
export type ModelValueSource = 'explicit' | 'environment' | 'secure-store' | 'settings-file' | 'default';

export interface Sourced {
  value: string;
  source: ModelValueSource;
}

/** Every value of the config with where it came from; `apiKey` / `baseURL` null when no source has one. */
export interface ModelConfigSources {
  model: Sourced;
  apiKey: Sourced | null;
  baseURL: Sourced | null;
}

export interface ExplicitModelValues {
  model?: string;
  apiKey?: string;
  baseURL?: string;
}

function nonBlank(value: string | undefined | null): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function firstOf(candidates: Array<[string | undefined | null, ModelValueSource]>): Sourced | null {
  for (const [raw, source] of candidates) {
    const value = nonBlank(raw);
    if (value) return { value, source };
  }
  return null;
}

/**
 * The one precedence of the model config, with sources. Model: explicit (`--model`) > ANTHROPIC_MODEL > settings
 * `model.name` > the default. Key: explicit > ANTHROPIC_API_KEY > the desktop's encrypted store (`storedKey`) >
 * settings `model.apiKey`. Base URL: explicit > ANTHROPIC_BASE_URL > settings `model.baseURL`. `settings` comes
 * from the user's own settings file only.
 */
export function modelConfigSources(
  env: NodeJS.ProcessEnv,
  explicit: ExplicitModelValues = {},
  settings: ModelSettings = {},
  storedKey: string | null = null,
): ModelConfigSources {
  return {
    model: firstOf([
      [explicit.model, 'explicit'],
      [env.ANTHROPIC_MODEL, 'environment'],
      [settings.name, 'settings-file'],
    ]) ?? { value: DEFAULT_MODEL, source: 'default' },
    apiKey: firstOf([
      [explicit.apiKey, 'explicit'],
      [env.ANTHROPIC_API_KEY, 'environment'],
      [storedKey, 'secure-store'],
      [settings.apiKey, 'settings-file'],
    ]),
    baseURL: firstOf([
      [explicit.baseURL, 'explicit'],
      [env.ANTHROPIC_BASE_URL, 'environment'],
      [settings.baseURL, 'settings-file'],
    ]),
  };
}

/**
 * The model and its credentials for a session, by `modelConfigSources`' precedence. Throws when no source has a
 * key. The key goes to the worker over the port only.
 */
export function resolveModelConfig(...args: Parameters<typeof modelConfigSources>): ModelConfig {
  const sources = modelConfigSources(...args);
  if (!sources.apiKey) {
    throw new GatehouseError(
      'BAD_REQUEST',
      'no Anthropic API key: set ANTHROPIC_API_KEY, or model.apiKey in your user settings.yaml, or save one on the Settings page (or pass apiKey to createSession)',
    );
  }
  const baseURL = sources.baseURL?.value;
  return { model: sources.model.value, provider: { apiKey: sources.apiKey.value, ...(baseURL ? { baseURL } : {}) } };
}
