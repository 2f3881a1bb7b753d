// What the page does before anything else loads: no zod, no React, so the first load of the printed URL (which only
// moves the token and loads the page again) costs a few kilobytes of script instead of the whole app.

/** Where the browser shell keeps its token: this origin's session storage (this tab only, this port only). */
const TOKEN_STORAGE_KEY = 'gatehouse.token';

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
function takePageToken(location: PageLocation, storage: Storage | null): { token: string | null; reloading: boolean } {
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

/**
 * The browser shell's token for this page, taken the way takePageToken says (from the URL's fragment, else this
 * tab's session storage); null while the page loads itself again without the fragment. Also follows the printed URL
 * opened again in this tab (only the fragment changes: no new page).
 */
export function pageToken(): { token: string | null } | null {
  const { token, reloading } = takePageToken(window.location, sessionStore());
  if (reloading) return null;
  window.addEventListener('hashchange', () => void takePageToken(window.location, sessionStore()));
  return { token };
}
