import { describe, expect, it } from 'vitest';
import { folderFromLink, isAppLink, OpenRequests } from '../../../src/main/shells/electron/open-requests';
import type { OpenRequest } from '../../../src/main/shells/electron/open-requests';

// A gatehouse:// link is untrusted input (any web page can offer one): only a plain "open this local folder" link is
// understood, everything else is refused with the reason. The built main asking before it opens: main-bundle-opens.

const link = (folder: string) => `gatehouse://open?path=${encodeURIComponent(folder)}`;

describe('folderFromLink', () => {
  it('reads the folder of an open link (encoded or not), and of a file: URL on macOS and Linux', () => {
    expect(folderFromLink(link('/Users/me/code/my app'), 'darwin')).toEqual({ folder: '/Users/me/code/my app' });
    expect(folderFromLink('gatehouse://open/?path=/srv/app', 'linux')).toEqual({ folder: '/srv/app' });
    expect(folderFromLink(link('/srv/a/../b/./c/'), 'linux')).toEqual({ folder: '/srv/b/c' });
    expect(folderFromLink(link('C:\\Users\\me\\code'), 'win32')).toEqual({ folder: 'C:\\Users\\me\\code' });
    expect(folderFromLink(link('d:/work/app'), 'win32')).toEqual({ folder: 'd:\\work\\app' });
    expect(folderFromLink('file:///Users/me/My%20Code/', 'darwin')).toEqual({ folder: '/Users/me/My Code' });
    expect(folderFromLink('file://localhost/srv/app', 'linux')).toEqual({ folder: '/srv/app' });
  });

  it('refuses network paths, which Windows would contact with the user’s credentials just to look at them', () => {
    for (const p of [
      '\\\\attacker.example\\share',
      '//attacker.example/share',
      '\\\\?\\UNC\\attacker\\share',
      '\\\\?\\C:\\Users',
      '\\\\.\\pipe\\x',
      'C:relative',
      'relative\\dir',
      '/c/no-drive',
    ]) {
      expect(folderFromLink(link(p), 'win32'), p).toEqual({ error: expect.any(String) });
    }
    expect(folderFromLink(link('//attacker.example/share'), 'darwin')).toEqual({ error: expect.any(String) });
    expect(folderFromLink('file://attacker.example/share', 'darwin')).toEqual({
      error: 'the file link names another machine',
    });
    expect(folderFromLink('file:///C:/Users', 'win32')).toEqual({ error: expect.stringMatching(/not opened/) });
  });

  it('refuses anything but one path: other actions, extra or repeated parameters, credentials, fragments', () => {
    for (const url of [
      'gatehouse://run?path=/srv/app',
      'gatehouse://open/run?path=/srv/app',
      'gatehouse://open?path=/srv/app&prompt=rm%20-rf',
      'gatehouse://open?path=/srv/app&path=/etc',
      'gatehouse://open?folder=/srv/app',
      'gatehouse://open',
      'gatehouse://user:pw@open?path=/srv/app',
      'gatehouse://open:8080?path=/srv/app',
      'gatehouse://open?path=/srv/app#frag',
      'gatehouse:open?path=/srv/app',
      'file:///srv/app?x=1',
      'javascript:alert(1)',
      'https://example.com/?path=/srv',
      'not a url',
    ]) {
      expect(folderFromLink(url, 'linux'), url).toEqual({ error: expect.any(String) });
    }
  });

  it('refuses relative, empty, control-character and oversized paths', () => {
    for (const p of ['srv/app', '', '/srv/app\u0000/etc', '/srv/app\n--inspect', `/${'a'.repeat(5000)}`]) {
      expect(folderFromLink(link(p), 'linux'), JSON.stringify(p.slice(0, 40))).toEqual({ error: expect.any(String) });
    }
    expect(folderFromLink(`gatehouse://open?path=/${'a'.repeat(9000)}`, 'linux')).toEqual({
      error: 'the link is too long',
    });
  });

  it('a + in the query is a space, as in every form-encoded query: a path with + must encode it', () => {
    expect(folderFromLink('gatehouse://open?path=/srv/a+b', 'linux')).toEqual({ folder: '/srv/a b' });
    expect(folderFromLink('gatehouse://open?path=/srv/a%2Bb', 'linux')).toEqual({ folder: '/srv/a+b' });
  });

  it('isAppLink tells our links from folders, whatever their case', () => {
    expect(isAppLink('gatehouse://open?path=/x')).toBe(true);
    expect(isAppLink('GateHouse://OPEN')).toBe(true);
    expect(isAppLink('/home/me/gatehouse:notes')).toBe(false);
    expect(isAppLink('gatehouse-notes')).toBe(false);
  });
});

describe('OpenRequests', () => {
  it('keeps what comes before the window exists, hands it over in order, then passes the rest straight on', () => {
    const opens = new OpenRequests();
    const seen: OpenRequest[] = [];
    opens.push({ kind: 'folder', path: '/a' });
    opens.push({ kind: 'link', url: 'gatehouse://open?path=/b' });
    expect(opens.waiting()).toBe(true);
    opens.attach((r) => seen.push(r));
    expect(opens.waiting()).toBe(false);
    opens.push({ kind: 'folder', path: '/c' });
    expect(seen.map((r) => (r.kind === 'folder' ? r.path : r.url))).toEqual(['/a', 'gatehouse://open?path=/b', '/c']);
  });

  it('keeps a bounded number: a flood of links before start-up does not grow without end', () => {
    const opens = new OpenRequests();
    for (let i = 0; i < 1000; i++) opens.push({ kind: 'link', url: `gatehouse://open?path=/${i}` });
    let count = 0;
    opens.attach(() => count++);
    expect(count).toBe(32);
  });
});
