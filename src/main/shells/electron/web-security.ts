import fs from 'node:fs';
import type { Session, WebContents } from 'electron';
import { protocol, shell } from 'electron';
import { APP_CONTENT_SECURITY_POLICY, APP_SCHEME, resolveAppAsset } from './app-assets';
import { isPermissionGranted, pageUrlOfOrigin } from './permission-policy';
import { externalUrlToOpen } from './url-policy';

export type AppPageCheck = (url: string) => boolean;

/** Must run before the app's `ready` event: makes `app://` a standard, secure scheme (origin, CSP 'self', fetch). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/** Serves the built renderer folder on `app://gatehouse/`, confined to that folder (see resolveAppAsset). */
export function serveAppScheme(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const asset = request.method === 'GET' ? await resolveAppAsset(rendererDir, request.url) : null;
    if (!asset) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    const body = await fs.promises.readFile(asset.file);
    const headers: Record<string, string> = { 'content-type': asset.mimeType, 'x-content-type-options': 'nosniff' };
    if (asset.mimeType.startsWith('text/html')) headers['content-security-policy'] = APP_CONTENT_SECURITY_POLICY;
    return new Response(new Uint8Array(body), { status: 200, headers });
  });
}

/** Opens an http(s) link in the OS browser after validation; anything else is dropped. */
function openExternalLink(raw: string): void {
  const url = externalUrlToOpen(raw);
  if (url) void shell.openExternal(url).catch(() => undefined);
}

/** Denies every web permission and device the app does not use, for every page of the session. */
export function hardenSession(session: Session, isAppPage: AppPageCheck): void {
  session.setPermissionRequestHandler((webContents, permission, callback, details) => {
    callback(isPermissionGranted(permission, details.requestingUrl ?? webContents.getURL(), isAppPage));
  });
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) => {
    return isPermissionGranted(permission, pageUrlOfOrigin(requestingOrigin), isAppPage);
  });
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event) => event.preventDefault());
}

/**
 * For every webContents the app creates: no new windows (http/https links go to the OS browser after
 * validation), no navigation or redirect away from the app's page, no <webview>.
 */
export function hardenWebContents(contents: WebContents, isAppPage: AppPageCheck): void {
  contents.setWindowOpenHandler(({ url }) => {
    openExternalLink(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => {
    if (!isAppPage(event.url)) {
      event.preventDefault();
      openExternalLink(event.url);
    }
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAppPage(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppPage(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
