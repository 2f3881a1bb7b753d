// The renderer's API layer: import from here, never from the files behind it.
export { ApiProvider, useApi, useApiClient, useApiEvent, useConnection } from './context';
export { createBridgeClient } from './create-client';
export { createSocketClient, socketUrlFor } from './socket-client';
export type { SocketClientOptions, SocketLike } from './socket-client';
export { createPreloadClient } from './bridge-client';
export { ConnectionLostError, errorMessage } from './errors';
export { useApiResource } from './use-api-resource';
export type { ApiClient, ConnectionState } from './types';
