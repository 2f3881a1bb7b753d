import { createPreloadClient } from './bridge-client';
import { createSocketClient, socketUrlFor } from './socket-client';
import type { ApiClient } from './types';

/**
 * Reads the page's `?token=` once, keeps it in memory and takes it out of the address bar (the HttpOnly cookie
 * the server set on this page load covers reloads and the socket).
 */
function takePageToken(): string | null {
  const params = new URLSearchParams(window.location.search);
  const token = params.get('token');
  if (token) {
    params.delete('token');
    const rest = params.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}${window.location.hash}`);
  }
  return token;
}

/** The preload bridge in the desktop app, the socket in the browser shell: the same typed API either way. */
export function createBridgeClient(): ApiClient {
  if (window.gatehouse) return createPreloadClient(window.gatehouse);
  return createSocketClient(socketUrlFor(window.location, takePageToken()));
}
