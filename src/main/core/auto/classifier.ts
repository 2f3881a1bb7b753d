import { z } from 'zod';
import { connectionCause, isUntrustedCertificate } from '../../../shared/connection-error';
import { processNetworkTrust } from '../network/process-trust';
import {
  CLASSIFIER_SYSTEM,
  CLASSIFY_TOOL,
  CLASSIFY_TOOL_DEFINITION,
  classifierUserText,
  type ClassifierCall,
} from './classifier-request';

const DEFAULT_BASE_URL = 'https://api.anthropic.com';

export interface ClassifierProvider {
  apiKey: string;
  baseURL?: string;
}

export interface ClassifierOptions {
  provider: ClassifierProvider;
  model: string;
  timeoutMs: number;
}

/** The classifier's answer as main applies it: anything but a valid allow is a block. */
export interface ClassifierVerdict {
  decision: 'allow' | 'block';
  reason: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
}

/** The only answer accepted: the classify tool's input, exactly. */
const AnswerSchema = z.strictObject({
  decision: z.enum(['allow', 'block']),
  reason: z.string().trim().min(1).max(2_000),
});

const UsageSchema = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
});

/** A block answered for the classifier when it gave no valid answer (error, timeout, another shape). */
function failed(why: string): Pick<ClassifierVerdict, 'decision' | 'reason'> {
  return { decision: 'block', reason: `no valid answer from the classifier (${why}), so it counts as a block` };
}

/** Reads the classify call out of a Messages API response; anything else is a block saying why. */
function readVerdict(message: unknown): Pick<ClassifierVerdict, 'decision' | 'reason'> {
  const content = (message as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return failed('the response had no content');
  const calls = content.filter(
    (b): b is { type: 'tool_use'; name: unknown; input: unknown } =>
      typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'tool_use',
  );
  if (calls.length !== 1 || calls[0]!.name !== CLASSIFY_TOOL)
    return failed(`expected one ${CLASSIFY_TOOL} call, got ${calls.length} tool calls`);
  const parsed = AnswerSchema.safeParse(calls[0]!.input);
  if (!parsed.success) return failed(`its answer did not match the schema: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

type AnthropicModule = typeof import('@anthropic-ai/sdk');
let sdk: Promise<AnthropicModule> | null = null;

/**
 * Asks the classifier model about one call through the Anthropic Messages API (the agent's own provider settings),
 * with the person's messages and the call only. Never throws: an error, a timeout, a cancel or a malformed answer
 * is a block whose reason says so.
 */
export async function classify(
  options: ClassifierOptions,
  personMessages: readonly string[],
  call: ClassifierCall,
  signal: AbortSignal,
): Promise<ClassifierVerdict> {
  const started = performance.now();
  const base = { model: options.model, inputTokens: 0, outputTokens: 0 };
  const done = (v: Pick<ClassifierVerdict, 'decision' | 'reason'>, usage?: unknown): ClassifierVerdict => {
    const u = UsageSchema.safeParse(usage);
    return {
      ...base,
      ...v,
      ...(u.success ? { inputTokens: u.data.input_tokens, outputTokens: u.data.output_tokens } : {}),
      latencyMs: Math.round(performance.now() - started),
    };
  };
  // main's own connection trusts what the worker's does (system store, network.caFile), where the shell let it.
  const trust = await processNetworkTrust();
  if (trust?.error) return done(failed(trust.error));
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    // Loaded with the first classification, not at start (the SDK is most of a cold start's parsing).
    const { default: Anthropic } = await (sdk ??= import('@anthropic-ai/sdk'));
    const client = new Anthropic({
      apiKey: options.provider.apiKey,
      // Explicit, so the SDK never falls back to ANTHROPIC_BASE_URL from main's own environment.
      baseURL: options.provider.baseURL ?? DEFAULT_BASE_URL,
      maxRetries: 0,
      timeout: options.timeoutMs,
    });
    const message = await client.messages.create(
      {
        model: options.model,
        max_tokens: 512,
        system: CLASSIFIER_SYSTEM,
        messages: [{ role: 'user', content: classifierUserText(personMessages, call) }],
        tools: [CLASSIFY_TOOL_DEFINITION],
        tool_choice: { type: 'tool', name: CLASSIFY_TOOL },
      },
      { signal: AbortSignal.any([signal, timeout]) },
    );
    return done(readVerdict(message), message.usage);
  } catch (err) {
    if (timeout.aborted && !signal.aborted) return done(failed(`no answer within ${options.timeoutMs / 1000} s`));
    if (signal.aborted) return done(failed('the run stopped'));
    const cause = connectionCause(err);
    const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    // Node before 22.19 cannot take new CAs once started: the settings' CA file reached the worker, not this process.
    const unreached =
      trust?.install.mode === 'unsupported' && trust.caFiles > 0 && isUntrustedCertificate(err)
        ? `; on Node ${process.versions.node} network.caFile reaches the worker only: set NODE_EXTRA_CA_CERTS to it as well`
        : '';
    return done(failed(`${cause ? `${message} (${cause})` : message}${unreached}`));
  }
}
