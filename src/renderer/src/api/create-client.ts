import { createPreloadClient } from './bridge-client';
import { createSocketClient, socketUrlFor } from './socket-client';
import type { ApiClient } from './types';

/** The preload bridge in the desktop app; in the browser shell the socket, with the page's token (pageToken). */
export function createBridgeClient(token: string | null): ApiClient {
  if (window.gatehouse) return createPreloadClient(window.gatehouse);
  return createSocketClient(socketUrlFor(window.location), token);
}
