import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiHandlers } from '../../src/main/services/app/api-dispatch';
import { API_CHANNELS, SOCKET_UNAUTHORIZED } from '../../src/shared/api';
import { isImmutableAsset } from '../../src/main/shells/web/http-handler';
import { readPageCsp, resolveStaticFile, serverCsp } from '../../src/main/shells/web/static-files';
import { startWebServer } from '../../src/main/shells/web/web-server';
import type { WebServer } from '../../src/main/shells/web/web-server';
import { openApiSocket } from '../e2e/support/api-socket';
import { makeTempDir, removeTempDir } from '../e2e/support/start-web';

const PAGE = `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self';  script-src 'self'" /></head><body>page</body></html>`;

let base: string;
let root: string;

/** root/ holds the page and assets; beside it, secrets; inside it, symlinks pointing out. */
beforeAll(() => {
  base = makeTempDir('gh-web-static-');
  root = path.join(base, 'renderer');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), PAGE);
  fs.writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'assets', 'style.css'), 'body{}');
  fs.writeFileSync(path.join(base, 'secret.txt'), 'TOP SECRET');
  fs.mkdirSync(path.join(base, 'outside'));
  fs.writeFileSync(path.join(base, 'outside', 'x.js'), 'SECRET JS');
  fs.symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'link.txt'));
  fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'assets', 'out'));
  fs.symlinkSync(path.join(root, 'assets', 'app.js'), path.join(root, 'inner-link.js'));
});

afterAll(() => removeTempDir(base));

describe('isImmutableAsset', () => {
  it('is only a built asset named after its content, directly in assets/', () => {
    const asset = (...parts: string[]): boolean => isImmutableAsset(root, path.join(root, ...parts));
    expect(asset('assets', 'index-CMuCNLHS.js')).toBe(true);
    expect(asset('assets', 'TerminalView-Df1QSvIy.css')).toBe(true);
    for (const parts of [
      ['index.html'],
      ['assets', 'app.js'],
      ['assets', 'index-CMuCNLHS.html'],
      ['assets', 'out', 'x-CMuCNLHS.js'],
      ['index-CMuCNLHS.js'],
    ])
      expect(asset(...parts), parts.join('/')).toBe(false);
    expect(isImmutableAsset(root, path.join(base, 'assets', 'index-CMuCNLHS.js'))).toBe(false);
  });
});

describe('resolveStaticFile confines every path to the renderer folder', () => {
  it('finds the page and its assets', async () => {
    expect(await resolveStaticFile(root, '/')).toEqual({ kind: 'file', file: path.join(root, 'index.html') });
    expect(await resolveStaticFile(root, '/assets/app.js')).toEqual({
      kind: 'file',
      file: path.join(root, 'assets', 'app.js'),
    });
    expect(await resolveStaticFile(root, '/assets//app.js')).toEqual({
      kind: 'file',
      file: path.join(root, 'assets', 'app.js'),
    });
    expect(await resolveStaticFile(root, '/inner-link.js')).toEqual({
      kind: 'file',
      file: path.join(root, 'assets', 'app.js'),
    });
  });

  it.each([
    ['/../secret.txt'],
    ['/..%2fsecret.txt'],
    ['/%2e%2e/secret.txt'],
    ['/assets/..%2F..%2Fsecret.txt'],
    ['/link.txt'],
    ['/assets/out/x.js'],
    ['/assets/out/../../secret.txt'],
    ['/assets'],
    ['/missing.js'],
    [`/${'../'.repeat(20)}etc/passwd`],
  ])('never resolves %s to a file', async (p) => {
    expect((await resolveStaticFile(root, p)).kind).toBe('not-found');
  });

  it.each([['/%'], ['/%E0%A4%A'], ['/index.html%00'], ['/..%5csecret.txt'], ['/assets\\..\\..\\secret.txt']])(
    'rejects the malformed path %s',
    async (p) => {
      expect((await resolveStaticFile(root, p)).kind).toBe('bad-request');
    },
  );
});

describe('readPageCsp and serverCsp', () => {
  it('takes the meta policy; the header narrows connect-src to the port and adds frame-ancestors and Trusted Types', async () => {
    expect(readPageCsp(PAGE)).toBe("default-src 'self'; script-src 'self'");
    expect(readPageCsp('<html></html>')).toBeNull();
    expect(serverCsp("default-src 'self'; script-src 'self'", 4317)).toBe(
      "default-src 'self'; script-src 'self'; connect-src 'self' ws://127.0.0.1:4317 ws://localhost:4317; frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types 'none'",
    );
    expect(serverCsp("connect-src 'self' ws://127.0.0.1:*; frame-ancestors 'self'; trusted-types a", 9)).toBe(
      "connect-src 'self' ws://127.0.0.1:9 ws://localhost:9; frame-ancestors 'self'; trusted-types a; require-trusted-types-for 'script'",
    );
  });
});

describe('startWebServer over real HTTP, with symlinks in the served folder', () => {
  let server: WebServer;
  const unused = async (): Promise<never> => {
    throw new Error('not used here');
  };
  const handlers = Object.fromEntries(API_CHANNELS.map((c) => [c, unused])) as unknown as ApiHandlers;

  beforeAll(async () => {
    server = await startWebServer({ rendererDir: root, port: 0, handlers, onEvent: () => () => undefined });
  });
  afterAll(() => server.close());

  const get = (p: string): Promise<{ status: number; body: string; type: string | undefined }> =>
    new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: server.port, path: p }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'] }));
        })
        .on('error', reject);
    });

  it('binds 127.0.0.1 and prints the token in the URL fragment', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=${server.token}`);
  });

  it('serves what is inside, with MIME types, and nothing a symlink points to outside', async () => {
    expect(await get('/')).toMatchObject({ status: 200, body: PAGE, type: 'text/html; charset=utf-8' });
    expect(await get('/assets/style.css')).toMatchObject({ status: 200, type: 'text/css; charset=utf-8' });
    for (const p of ['/link.txt', '/assets/out/x.js', '/..%2fsecret.txt', '/assets/out/..%2f..%2fsecret.txt']) {
      const res = await get(p);
      expect([400, 404], p).toContain(res.status);
      expect(res.body).not.toMatch(/SECRET/);
    }
  });

  it('closes a socket that sends no token in time (4401), without answering anything', async () => {
    const quick = await startWebServer({
      rendererDir: root,
      port: 0,
      handlers,
      onEvent: () => () => undefined,
      authTimeoutMs: 100,
    });
    try {
      const s = await openApiSocket(quick.port, { token: null });
      const code = await new Promise<number>((resolve) => s.ws.once('close', (c) => resolve(c)));
      expect(code).toBe(SOCKET_UNAUTHORIZED);
      expect(s.frames).toEqual([]);
    } finally {
      await quick.close();
    }
  });

  it('refuses to start when the renderer is not built', async () => {
    await expect(
      startWebServer({ rendererDir: path.join(base, 'outside'), port: 0, handlers, onEvent: () => () => undefined }),
    ).rejects.toThrow(/not built/);
  });
});
