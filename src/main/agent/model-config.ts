import { GatehouseError } from '../../shared/errors';

export const DEFAULT_MODEL = 'claude-sonnet-5-5';

export interface ModelConfig {
  model: string;
  provider: { apiKey: string; baseURL?: string };
}

/**
 * The model and its credentials for a headless shell: explicit values first, then ANTHROPIC_API_KEY /
 * ANTHROPIC_BASE_URL / ANTHROPIC_MODEL, then the default model. The key goes to the worker over the port only.
 */
export function resolveModelConfig(env: NodeJS.ProcessEnv, explicit: { model?: string; apiKey?: string; baseURL?: string } = {}): ModelConfig {
  const apiKey = explicit.apiKey ?? env.ANTHROPIC_API_KEY;
  if (!apiKey || !apiKey.trim()) {
    throw new GatehouseError('BAD_REQUEST', 'no Anthropic API key: set ANTHROPIC_API_KEY (or pass apiKey to createSession)');
  }
  const baseURL = explicit.baseURL ?? (env.ANTHROPIC_BASE_URL?.trim() || undefined);
  const model = explicit.model ?? (env.ANTHROPIC_MODEL?.trim() || DEFAULT_MODEL);
  return { model, provider: { apiKey: apiKey.trim(), ...(baseURL ? { baseURL } : {}) } };
}
