import { pageToken } from './api/page-token';
import { applyCachedTheme } from './settings/theme';

// The page's entry: a few kilobytes that run first. The browser shell's first load of the printed URL only moves its
// token out of the URL and loads the page again; the app (React, the schemas, every view) is loaded after that, once,
// instead of being parsed and run on a page that is about to go away.
const root = document.getElementById('root');
// The last theme, before anything paints (the settings confirm it once they load).
applyCachedTheme();
const page = window.gatehouse ? { token: null } : pageToken();
if (root && page) {
  import('./boot').then(
    ({ boot }) => boot(root, page.token),
    (err: unknown) => {
      root.textContent = `Gatehouse could not load its page: ${err instanceof Error ? err.message : String(err)}. Reload to try again.`;
    },
  );
}
