import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CONTENT_SECURITY_POLICY, resolveAppAsset } from '../../../src/main/shells/electron/app-assets';

let base: string;
let root: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-assets-')));
  root = path.join(base, 'renderer');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html>');
  fs.writeFileSync(path.join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'assets', 'a b.css'), 'body{}');
  fs.writeFileSync(path.join(base, 'secret.txt'), 'secret');
  fs.mkdirSync(path.join(base, 'renderer-evil'));
  fs.writeFileSync(path.join(base, 'renderer-evil', 'x.js'), 'evil');
  fs.symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'assets', 'link-out.txt'));
  fs.symlinkSync(base, path.join(root, 'dir-out'));
  fs.symlinkSync(path.join(root, 'index.html'), path.join(root, 'assets', 'link-in.html'));
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('resolveAppAsset (the app:// protocol handler)', () => {
  it('serves the page and its assets with their MIME types', async () => {
    expect(await resolveAppAsset(root, 'app://gatehouse/index.html')).toEqual({
      file: path.join(root, 'index.html'),
      mimeType: 'text/html; charset=utf-8',
    });
    expect((await resolveAppAsset(root, 'app://gatehouse/'))?.file).toBe(path.join(root, 'index.html'));
    expect((await resolveAppAsset(root, 'app://gatehouse/assets/index-abc.js'))?.mimeType).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await resolveAppAsset(root, 'app://gatehouse/assets/a%20b.css'))?.file).toBe(
      path.join(root, 'assets', 'a b.css'),
    );
    expect((await resolveAppAsset(root, 'app://gatehouse/assets/index-abc.js?v=1#x'))?.file).toBe(
      path.join(root, 'assets', 'index-abc.js'),
    );
  });

  it('follows a symlink that stays inside the renderer folder', async () => {
    expect((await resolveAppAsset(root, 'app://gatehouse/assets/link-in.html'))?.file).toBe(
      path.join(root, 'index.html'),
    );
  });

  it.each([
    ['app://gatehouse/../secret.txt'],
    ['app://gatehouse/%2e%2e/secret.txt'],
    ['app://gatehouse/..%2fsecret.txt'],
    ['app://gatehouse/assets/..%2f..%2fsecret.txt'],
    ['app://gatehouse/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd'],
    ['app://gatehouse/..%5csecret.txt'],
    ['app://gatehouse/index.html%00.js'],
    ['app://gatehouse/%E0%A4%A'],
    ['app://gatehouse//etc/passwd'],
    ['app://gatehouse/..%2frenderer-evil/x.js'],
    ['app://gatehouse/assets/link-out.txt'],
    ['app://gatehouse/dir-out/secret.txt'],
    ['app://gatehouse/assets'],
    ['app://gatehouse/missing.js'],
    ['app://other/index.html'],
    ['file:///etc/passwd'],
    ['https://gatehouse/index.html'],
    ['not a url'],
  ])('refuses %s', async (url) => {
    expect(await resolveAppAsset(root, url)).toBeNull();
  });

  it('refuses an absolute path to a file outside, encoded', async () => {
    expect(
      await resolveAppAsset(root, 'app://gatehouse/' + encodeURIComponent(path.join(base, 'secret.txt'))),
    ).toBeNull();
    expect(await resolveAppAsset(root, 'app://gatehouse' + path.join(base, 'secret.txt'))).toBeNull();
  });

  it('never resolves to a file outside the root, whatever the path', async () => {
    const tricky = ['..', '%2e%2e', '.%2e', '%2e.', '..%2f', '..%5c', '%252e%252e', '....//', '.', '%2f'];
    for (const a of tricky) {
      for (const b of tricky) {
        const asset = await resolveAppAsset(root, `app://gatehouse/${a}/${b}/secret.txt`);
        if (asset) expect(path.relative(root, asset.file).startsWith('..')).toBe(false);
      }
    }
  });

  it('sends a CSP without remote scripts or eval', () => {
    expect(APP_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(APP_CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(APP_CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(APP_CONTENT_SECURITY_POLICY).toContain("require-trusted-types-for 'script'; trusted-types 'none'");
  });
});
