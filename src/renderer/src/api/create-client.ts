import { createPreloadClient } from './bridge-client';
import { createSocketClient, socketUrlFor } from './socket-client';
import type { ApiClient } from './types';

/** Where the browser shell keeps its token: this origin's session storage (this tab only, this port only). */
export const TOKEN_STORAGE_KEY = 'gatehouse.token';

interface PageLocation {
  pathname: string;
  search: string;
  hash: string;
  replace(url: string): void;
}

/**
 * The browser shell's token. The printed URL carries it in the fragment (`#token=…`), which no browser sends to
 * any server. The page moves it into this origin's session storage and loads itself again without the fragment
 * (`location.replace`): the address bar, the tab's history and the new page's navigation performance entry then
 * hold no token (a `history.replaceState` alone would leave it in the performance entry). Returns `reloading` while
 * that happens; later loads (a reload of the tab) find the token in session storage.
 */
export function takePageToken(
  location: PageLocation,
  storage: Storage | null,
): { token: string | null; reloading: boolean } {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromUrl = params.get('token');
  if (fromUrl) {
    try {
      storage?.setItem(TOKEN_STORAGE_KEY, fromUrl);
      if (storage?.getItem(TOKEN_STORAGE_KEY) === fromUrl) {
        location.replace(`${location.pathname}${location.search}`);
        return { token: null, reloading: true };
      }
    } catch {
      // no storage: keep the token in memory for this page's life only
    }
    window.history.replaceState(null, '', `${location.pathname}${location.search}`);
    return { token: fromUrl, reloading: false };
  }
  try {
    return { token: storage?.getItem(TOKEN_STORAGE_KEY) ?? null, reloading: false };
  } catch {
    return { token: null, reloading: false };
  }
}

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The preload bridge in the desktop app, the socket in the browser shell; null while the page reloads itself. */
export function createBridgeClient(): ApiClient | null {
  if (window.gatehouse) return createPreloadClient(window.gatehouse);
  const { token, reloading } = takePageToken(window.location, sessionStore());
  if (reloading) return null;
  // The printed URL opened again in this tab changes only the fragment (no new page): take the new token the same way.
  window.addEventListener('hashchange', () => void takePageToken(window.location, sessionStore()));
  return createSocketClient(socketUrlFor(window.location), token);
}
