import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import type { ApiEvent, GatehouseApi } from '../../../shared/api';
import type { ApiClient, ConnectionState } from './types';

const ApiClientContext = createContext<ApiClient | null>(null);

export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiClientContext.Provider value={client}>{children}</ApiClientContext.Provider>;
}

export function useApiClient(): ApiClient {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error('useApi() must be used inside <ApiProvider>');
  return client;
}

/** The typed API (preload bridge or socket: components never know which). */
export function useApi(): GatehouseApi {
  return useApiClient().api;
}

/** The state of the link to main; re-renders when it changes. */
export function useConnection(): ConnectionState {
  const client = useApiClient();
  return useSyncExternalStore(
    (onChange) => client.onConnection(onChange),
    () => client.connection(),
  );
}

/** Calls `listener` for every event main pushes, for as long as the component is mounted. */
export function useApiEvent(listener: (event: ApiEvent) => void): void {
  const api = useApi();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => api.onEvent((event) => latest.current(event)), [api]);
}
