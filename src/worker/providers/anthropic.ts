import Anthropic, { APIConnectionError, APIError, APIUserAbortError, type Middleware } from '@anthropic-ai/sdk';
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import { connectionCause, isUntrustedCertificate } from '../../shared/connection-error';
import { GatehouseError } from '../../shared/errors';
import {
  fromAnthropicMessage,
  fromAnthropicStopReason,
  toAnthropicMessages,
  toAnthropicTools,
} from './anthropic-convert';
import { AnthropicStreamAccumulator } from './anthropic-stream';
import { CancelledError, ProviderError } from './errors';
import type { ModelProvider, ProviderRequest, ProviderResponse, ProviderStreamHandlers } from './types';

const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicProviderOptions {
  /** Handed over by main through the port; never read from the worker's environment. */
  apiKey: string;
  /** Main resolves ANTHROPIC_BASE_URL / settings; the provider never reads the environment. */
  baseURL?: string;
  model: string;
  /** Retries of 408/409/429/5xx/529 by the SDK (honouring retry-after / retry-after-ms), and of an overload that
   *  arrives inside a streamed response before anything was delivered. Default 4. */
  maxRetries?: number;
  /** Stream the answer (SSE, default) or ask for one JSON message. */
  streaming?: boolean;
  /** Per-request timeout. Default: the SDK's (10 minutes). */
  timeoutMs?: number;
  /** First backoff step for in-stream overloads (no retry-after header exists there). Default 500 ms. */
  streamRetryBaseDelayMs?: number;
}

/** Errors that arrive inside a 200 SSE stream: the SDK cannot retry them, so the provider does, while nothing was
 *  delivered yet (a retry after a text delta would repeat it). */
const RETRYABLE_STREAM_ERROR_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error']);

/** The Anthropic Messages API through the official SDK: streaming, tool use, retries, cancellation. */
export class AnthropicProvider implements ModelProvider {
  readonly name = 'anthropic';
  readonly defaultModel: string;
  private readonly client: Anthropic;
  private readonly maxRetries: number;
  private readonly streaming: boolean;
  private readonly streamRetryBaseDelayMs: number;
  /** Where the requests go, as errors name it (without any user:password part). */
  private readonly shownURL: string;

  constructor(options: AnthropicProviderOptions) {
    if (!options.apiKey)
      throw new GatehouseError('BAD_REQUEST', 'no Anthropic API key: set one in the settings or ANTHROPIC_API_KEY');
    this.defaultModel = options.model;
    this.maxRetries = options.maxRetries ?? 4;
    this.streaming = options.streaming ?? true;
    this.streamRetryBaseDelayMs = options.streamRetryBaseDelayMs ?? 500;
    this.shownURL = shownBaseURL(options.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL);
    this.client = new Anthropic({
      apiKey: options.apiKey,
      // Explicit, so the SDK does not fall back to ANTHROPIC_BASE_URL from the worker's environment.
      baseURL: options.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL,
      maxRetries: this.maxRetries,
      middleware: [untrustedCertificateFailsFast(this.shownURL)],
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    });
  }

  async stream(
    request: ProviderRequest,
    handlers: ProviderStreamHandlers,
    signal: AbortSignal,
  ): Promise<ProviderResponse> {
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw new CancelledError();
      const accumulator = new AnthropicStreamAccumulator(handlers);
      try {
        return this.streaming
          ? await this.streamOnce(request, accumulator, signal)
          : await this.createOnce(request, handlers, signal);
      } catch (err) {
        if (signal.aborted || err instanceof APIUserAbortError || err instanceof CancelledError)
          throw new CancelledError();
        if (isRetryableInStream(err) && !accumulator.delivered && attempt < this.maxRetries) {
          await abortableDelay(backoffMs(this.streamRetryBaseDelayMs, attempt), signal);
          continue;
        }
        throw toProviderError(err, this.shownURL);
      }
    }
  }

  private params(request: ProviderRequest): MessageCreateParamsBase {
    return {
      model: request.model,
      max_tokens: request.maxTokens,
      system: request.system,
      messages: toAnthropicMessages(request.messages),
      ...(request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
    };
  }

  private async streamOnce(
    request: ProviderRequest,
    accumulator: AnthropicStreamAccumulator,
    signal: AbortSignal,
  ): Promise<ProviderResponse> {
    const events = await this.client.messages.create({ ...this.params(request), stream: true }, { signal });
    for await (const event of events) {
      accumulator.push(event);
    }
    // The SDK ends the iteration quietly when the request is aborted: make that a cancellation, not a short answer.
    if (signal.aborted) throw new CancelledError();
    if (!accumulator.complete)
      throw new ProviderError('the answer stream ended before message_stop (connection cut?)', {
        errorType: 'incomplete_stream',
      });
    return accumulator.result();
  }

  private async createOnce(
    request: ProviderRequest,
    handlers: ProviderStreamHandlers,
    signal: AbortSignal,
  ): Promise<ProviderResponse> {
    const message = await this.client.messages.create({ ...this.params(request), stream: false }, { signal });
    const content = fromAnthropicMessage(message);
    for (const block of content) {
      if (block.type === 'text') handlers.onText(block.text);
      else if (block.type === 'tool_use') handlers.onToolUseStart?.({ id: block.id, name: block.name });
    }
    const usage = message.usage;
    return {
      content,
      stopReason: fromAnthropicStopReason(message.stop_reason),
      usage: {
        inputTokens:
          usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
        outputTokens: usage.output_tokens,
      },
    };
  }
}

/**
 * A server whose certificate no trusted authority signed will not be trusted on the next try: said at once, rather
 * than after the SDK's retries of a connection error (an error a middleware throws is not retried).
 */
function untrustedCertificateFailsFast(shownURL: string): Middleware {
  return async (request, next) => {
    try {
      return await next(request);
    } catch (err) {
      if (!isUntrustedCertificate(err)) throw err;
      throw new ProviderError(`cannot reach the model API at ${shownURL}: ${connectionCause(err) ?? String(err)}`);
    }
  };
}

function isRetryableInStream(err: unknown): boolean {
  if (err instanceof ProviderError) return err.errorType === 'incomplete_stream';
  return (
    err instanceof APIError &&
    err.status === undefined &&
    err.type !== null &&
    RETRYABLE_STREAM_ERROR_TYPES.has(err.type)
  );
}

function backoffMs(baseMs: number, attempt: number): number {
  const capped = Math.min(baseMs * 2 ** attempt, 8_000);
  return capped * (1 - Math.random() * 0.25);
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A base URL as an error may show it: no user name or password, no query. */
function shownBaseURL(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(an invalid base URL)';
  }
}

/** Plain words for the person and the transcript; never the key. `baseURL`: what was tried, named in every API error. */
function toProviderError(err: unknown, baseURL?: string): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof APIConnectionError) {
    const cause = connectionCause(err);
    return new ProviderError(
      `cannot reach the model API${baseURL ? ` at ${baseURL}` : ''}: ${err.message}${cause ? ` (${cause})` : ''}`,
    );
  }
  if (err instanceof APIError) {
    const status = typeof err.status === 'number' ? err.status : null;
    const what = err.apiMessage ?? err.message;
    const at = baseURL ? ` at ${baseURL}` : '';
    const prefix =
      status === 401
        ? `the API key was rejected by the model API${at}`
        : status === null
          ? `the model API${at} failed mid-answer`
          : `the model API${at} answered ${status}`;
    return new ProviderError(`${prefix}${err.type ? ` (${err.type})` : ''}: ${what}`, { status, errorType: err.type });
  }
  return new ProviderError(`model request failed: ${err instanceof Error ? err.message : String(err)}`);
}
