import type { GatehouseApi } from '../../../shared/api';
import type { ApiClient, ConnectionState } from './types';

/** The desktop shell: the preload bridge is the API, and it is always connected. */
export function createPreloadClient(bridge: GatehouseApi): ApiClient {
  const open: ConnectionState = { status: 'open' };
  return {
    api: bridge,
    transport: 'bridge',
    connection: () => open,
    onConnection: () => () => undefined,
    close: () => undefined,
  };
}
