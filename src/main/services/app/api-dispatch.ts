import type { ApiChannel, ApiRequest, ApiResponse } from '../../../shared/api';
import { ApiChannels, isApiChannel } from '../../../shared/api';
import { GatehouseError } from '../../../shared/errors';
import { parseAtBoundary } from '../../../shared/validate';

export type ApiHandlers = {
  [C in ApiChannel]: (request: ApiRequest<C>) => Promise<ApiResponse<C>>;
};

/**
 * The one entry for every renderer request, from the preload bridge or the browser socket: an unknown channel
 * or a malformed payload is rejected whole before any handler runs; the handler's answer is checked too.
 */
export async function dispatchApi(handlers: ApiHandlers, channel: string, payload: unknown): Promise<unknown> {
  if (!isApiChannel(channel)) throw new GatehouseError('UNKNOWN_METHOD', `unknown channel "${channel.slice(0, 100)}"`);
  const spec = ApiChannels[channel];
  const request = parseAtBoundary(spec.request, payload ?? {}, channel);
  const handler = handlers[channel] as (req: unknown) => Promise<unknown>;
  const response = await handler(request);
  return parseAtBoundary(spec.response, response, `${channel} (response)`);
}
