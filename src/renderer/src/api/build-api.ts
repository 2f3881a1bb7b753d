import type { ApiChannel, ApiEvent, GatehouseApi } from '../../../shared/api';
import { API_CHANNELS, ApiChannels } from '../../../shared/api';
import { parseAtBoundary } from '../../../shared/validate';

export type ChannelCall = (channel: ApiChannel, payload: unknown) => Promise<unknown>;

/**
 * Builds the typed API from the channel list: one generic call per channel, with the answer checked against the
 * contract. No per-channel code, so a channel added to src/shared/api.ts is available here at once.
 */
export function buildApi(
  call: ChannelCall,
  onEvent: (listener: (event: ApiEvent) => void) => () => void,
): GatehouseApi {
  const methods: Record<string, unknown> = { onEvent };
  for (const channel of API_CHANNELS) {
    methods[channel] = async (request: unknown) => {
      const raw = await call(channel, request ?? {});
      return parseAtBoundary(ApiChannels[channel].response, raw, `${channel} (response)`);
    };
  }
  return methods as unknown as GatehouseApi;
}
