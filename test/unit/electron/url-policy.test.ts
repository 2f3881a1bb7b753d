import { describe, expect, it } from 'vitest';
import { APP_PAGE_URL } from '../../../src/main/shells/electron/app-assets';
import { isPermissionGranted, pageUrlOfOrigin } from '../../../src/main/shells/electron/permission-policy';
import { appPagesFor, externalUrlToOpen, isAppPageUrl } from '../../../src/main/shells/electron/url-policy';

describe('externalUrlToOpen (what shell.openExternal may receive)', () => {
  it('opens plain http and https links, normalized', () => {
    expect(externalUrlToOpen('https://example.com/docs?q=1#x')).toBe('https://example.com/docs?q=1#x');
    expect(externalUrlToOpen('http://EXAMPLE.com')).toBe('http://example.com/');
    expect(externalUrlToOpen('  https://example.com/a b')).toBe('https://example.com/a%20b');
  });

  it.each([
    ['file:///etc/passwd'],
    ['javascript:alert(1)'],
    ['JAVASCRIPT:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['vbscript:msgbox'],
    ['smb://attacker.example/share/payload.exe'],
    ['ms-msdt:/id PCWDiagnostic'],
    ['vscode://extension/install'],
    ['ftp://example.com/'],
    ['app://gatehouse/index.html'],
    ['https://user:pass@example.com/'],
    ['https://paypal.com@evil.example/'],
    ['http://'],
    ['https:'],
    ['//example.com/protocol-relative'],
    ['example.com'],
    [''],
  ])('refuses %s', (url) => {
    expect(externalUrlToOpen(url)).toBeNull();
  });

  it('opens plain mailto: links (the page offers them) with to/cc/bcc/subject/body only', () => {
    expect(externalUrlToOpen('mailto:dev@example.com')).toBe('mailto:dev@example.com');
    expect(
      externalUrlToOpen(
        'mailto:a@example.com,b@example.org?subject=Build%20failed&body=line1%0D%0Aline2&cc=c@example.net',
      ),
    ).toBe('mailto:a@example.com,b@example.org?subject=Build%20failed&body=line1%0D%0Aline2&cc=c@example.net');
  });

  it.each([
    ['mailto:dev@example.com?attach=/home/me/.ssh/id_rsa'],
    ['mailto:dev@example.com?ATTACHMENT=file:///etc/passwd'],
    ['mailto:dev@example.com?subject=x&x-attach=~/.aws/credentials'],
    ['mailto:dev@example.com?from=ceo@example.com'],
    ['mailto:dev@example.com?cc=not-an-address'],
    ['mailto:dev@example.com?bcc=a@example.com%0D%0ABcc:%20b@example.com'],
    ['mailto:'],
    ['mailto:?to=dev@example.com'],
    ['mailto:%22Dev%22%20%3Cdev@example.com%3E'],
    ['mailto:dev@exa%00mple.com'],
    ['mailto:dev@example.com?body=a%00b'],
    ['mailto:dev@-bad-.example'],
    ['mailto:no-at-sign'],
  ])('refuses %s', (url) => {
    expect(externalUrlToOpen(url)).toBeNull();
  });

  it('refuses URLs over 2 KB', () => {
    expect(externalUrlToOpen('https://example.com/' + 'a'.repeat(3000))).toBeNull();
  });

  it('refuses non-strings', () => {
    expect(externalUrlToOpen(undefined)).toBeNull();
    expect(externalUrlToOpen({ href: 'https://example.com' })).toBeNull();
  });
});

describe('isAppPageUrl (the sender and navigation check)', () => {
  const pages = appPagesFor(APP_PAGE_URL, undefined);

  it('accepts the bundled app page, with any query or fragment', () => {
    expect(isAppPageUrl('app://gatehouse/index.html', pages)).toBe(true);
    expect(isAppPageUrl('app://gatehouse/index.html#/settings', pages)).toBe(true);
    expect(isAppPageUrl('app://gatehouse/index.html?x=1', pages)).toBe(true);
  });

  it.each([
    ['app://gatehouse/other.html'],
    ['app://gatehouse/'],
    ['app://evil/index.html'],
    ['app://gatehouse.evil/index.html'],
    ['app://user@gatehouse/index.html'],
    ['file:///work/out/renderer/index.html'],
    ['https://gatehouse/index.html'],
    ['http://localhost:5173/'],
    ['about:blank'],
    ['devtools://devtools/bundled/inspector.html'],
    ['not a url'],
    [''],
  ])('refuses %s', (url) => {
    expect(isAppPageUrl(url, pages)).toBe(false);
  });

  it('in development accepts only the local dev server page, same port', () => {
    const dev = appPagesFor(APP_PAGE_URL, 'http://localhost:5173');
    expect(isAppPageUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isAppPageUrl('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isAppPageUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppPageUrl('http://127.0.0.1:5173/', dev)).toBe(false);
    expect(isAppPageUrl('app://gatehouse/index.html', dev)).toBe(false);
    expect(isAppPageUrl('http://localhost:5173/@fs/etc/passwd', dev)).toBe(false);
  });

  it('refuses a dev server URL that is not local', () => {
    expect(() => appPagesFor(APP_PAGE_URL, 'http://evil.example:5173')).toThrow(/not local/);
    expect(() => appPagesFor(APP_PAGE_URL, 'https://localhost:5173')).toThrow(/not local/);
  });
});

describe('web permissions', () => {
  const isApp = (url: string) => isAppPageUrl(url, [APP_PAGE_URL]);

  it('grants only sanitized clipboard writes, only to the app page', () => {
    expect(isPermissionGranted('clipboard-sanitized-write', APP_PAGE_URL, isApp)).toBe(true);
    expect(isPermissionGranted('clipboard-sanitized-write', 'https://evil.example/', isApp)).toBe(false);
    for (const p of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'hid',
      'usb',
      'serial',
      'display-capture',
      'unknown',
    ]) {
      expect(isPermissionGranted(p, APP_PAGE_URL, isApp), p).toBe(false);
    }
  });

  it('maps permission-check origins to the page on that origin', () => {
    expect(pageUrlOfOrigin('app://gatehouse')).toBe(APP_PAGE_URL);
    expect(isPermissionGranted('clipboard-sanitized-write', pageUrlOfOrigin('app://gatehouse'), isApp)).toBe(true);
    expect(pageUrlOfOrigin('null')).toBe('');
    expect(pageUrlOfOrigin('file:///')).toBe('');
    expect(pageUrlOfOrigin('')).toBe('');
  });
});
