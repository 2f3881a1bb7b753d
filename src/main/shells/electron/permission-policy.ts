// Which web permissions the app's page may use: none, except writing sanitized text to the clipboard (copy
// buttons). Every other page (there should be none) gets nothing. Pure: no electron import.

const GRANTED_TO_APP_PAGE = new Set(['clipboard-sanitized-write']);

export function isPermissionGranted(
  permission: string,
  requestingUrl: string,
  isAppPage: (url: string) => boolean,
): boolean {
  return GRANTED_TO_APP_PAGE.has(permission) && isAppPage(requestingUrl);
}

/** Permission checks carry an origin only: the app page URL on that origin, or '' when it is not a URL origin. */
export function pageUrlOfOrigin(origin: string): string {
  try {
    // Not `url.origin`: Node's URL reports 'null' for schemes it does not know, such as app://.
    const url = new URL(origin);
    return url.host ? `${url.protocol}//${url.host}/index.html` : '';
  } catch {
    return '';
  }
}
