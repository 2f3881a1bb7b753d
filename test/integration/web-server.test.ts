import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppInfoSchema, SOCKET_UNAUTHORIZED } from '../../src/shared/api';
import { WorkerInfoSchema } from '../../src/shared/worker-protocol';
import { openApiSocket, SocketClosed, SocketRefused } from '../e2e/support/api-socket';
import type { ApiSocket } from '../e2e/support/api-socket';
import {
  isProcessAlive,
  makeTempDir,
  removeTempDir,
  REPO_ROOT,
  requireBuiltApp,
  startWeb,
} from '../e2e/support/start-web';
import type { RunningWeb } from '../e2e/support/start-web';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET with the path sent byte for byte (no client-side normalisation of `..` or escapes). */
function get(port: number, rawPath: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function refusal(p: Promise<ApiSocket>): Promise<number> {
  try {
    const s = await p;
    await s.close();
  } catch (err) {
    if (err instanceof SocketRefused) return err.status;
    throw err;
  }
  throw new Error('expected the socket to be refused');
}

function parentPid(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // pid (comm) state ppid ...: comm may contain spaces, so split after the last ')'.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

const ASSET = (() => {
  requireBuiltApp();
  const js = fs.readdirSync(path.join(REPO_ROOT, 'out/renderer/assets')).find((f) => f.endsWith('.js'));
  if (!js) throw new Error('no built renderer script in out/renderer/assets');
  return `/assets/${js}`;
})();

let web: RunningWeb;
let project: string;

beforeAll(async () => {
  project = makeTempDir('gh-web-project-');
  web = await startWeb({ project });
});

afterAll(async () => {
  await web?.stop();
  removeTempDir(project);
});

describe('gatehouse web: the HTTP side', () => {
  it('prints exactly one line: the URL with a 32-byte base64url token in its fragment, on 127.0.0.1', () => {
    expect(web.stdout().trimEnd().split('\n')).toEqual([
      `Gatehouse is running at http://127.0.0.1:${web.port}/#token=${web.token}`,
    ]);
    expect(web.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(web.token, 'base64url')).toHaveLength(32);
  });

  it('serves the page and its assets with no credential, and never sets a cookie, whatever the request carries', async () => {
    const wrong = web.token.slice(0, -1) + (web.token.endsWith('A') ? 'B' : 'A');
    for (const [p, headers] of [
      ['/', {}],
      ['/index.html', {}],
      [ASSET, {}],
      [`/?token=${web.token}`, {}],
      [`/?token=${wrong}`, { cookie: `gh_token_${web.port}=${web.token}` }],
      [ASSET, { cookie: `other=1; gh_token_${web.port}=${wrong}` }],
      ['/nope', {}],
    ] as const) {
      const res = await get(web.port, p, headers);
      expect(res.status, p).toBe(p === '/nope' ? 404 : 200);
      expect(res.headers['set-cookie'], p).toBeUndefined();
      // The page holds no secret: the token appears in no response.
      expect(res.body).not.toContain(web.token);
    }
    const asset = await get(web.port, ASSET);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    // Named after its content: the browser keeps it (a new build has new names); the page and errors are never stored.
    expect(asset.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect((await get(web.port, '/index.html')).headers['cache-control']).toBe('no-store');
    expect((await get(web.port, '/assets/nope-0123456789.js')).headers['cache-control']).toBe('no-store');
  });

  it('sends the security headers; the CSP header narrows connect-src to this port and requires Trusted Types', async () => {
    const res = await get(web.port, '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    const header = String(res.headers['content-security-policy']);
    const directives = new Map(
      header
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name = '', ...values]) => [name, values.join(' ')]),
    );
    expect(directives.get('connect-src')).toBe(`'self' ws://127.0.0.1:${web.port} ws://localhost:${web.port}`);
    expect(header).not.toContain('*');
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('require-trusted-types-for')).toBe("'script'");
    expect(directives.get('trusted-types')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    // The page's own meta policy says the same (it applies in the desktop app too); only connect-src is narrower.
    const meta =
      /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(res.body)?.[1]?.replace(/\s+/g, ' ').trim() ?? '';
    expect(meta).toContain("connect-src 'self';");
    expect(meta).toContain("require-trusted-types-for 'script'; trusted-types 'none'");
    expect(header).toBe(
      `${meta.replace("connect-src 'self'", `connect-src 'self' ws://127.0.0.1:${web.port} ws://localhost:${web.port}`)}; frame-ancestors 'none'`,
    );
  });

  it('never serves a file outside the renderer folder, however the path is spelled', async () => {
    const secret = fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8');
    const attempts = [
      '/../package.json',
      '/../../package.json',
      '/..%2f..%2fpackage.json',
      '/..%2F..%2Fpackage.json',
      '/%2e%2e/%2e%2e/package.json',
      '/%2e%2e%2f%2e%2e%2fpackage.json',
      '/assets/..%2f..%2f..%2fpackage.json',
      '/assets/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/..%5c..%5cpackage.json',
      '/%252e%252e/package.json',
      '/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '//etc/passwd',
      '/index.html%00.js',
      '/%',
      '/assets',
      '/assets/',
    ];
    for (const attempt of attempts) {
      const res = await get(web.port, attempt);
      expect([400, 404], `${attempt} -> ${res.status}`).toContain(res.status);
      expect(res.body).not.toContain(secret.slice(0, 40));
      expect(res.body).not.toMatch(/root:.*:0:0:/);
    }
  });

  it('refuses other methods and other Host headers (DNS rebinding)', async () => {
    const post = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: web.port, path: '/', method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('x');
    });
    expect(post).toBe(405);
    expect((await get(web.port, '/', { host: 'evil.example:80' })).status).toBe(403);
    expect((await get(web.port, ASSET, { host: `127.0.0.1:${web.port + 1}` })).status).toBe(403);
    expect((await get(web.port, '/', { host: `localhost:${web.port}` })).status).toBe(200);
  });
});

async function closedWith(p: Promise<ApiSocket>): Promise<{ code: number; reason: string }> {
  try {
    const s = await p;
    await s.close();
  } catch (err) {
    if (err instanceof SocketClosed) return { code: err.code, reason: err.reason };
    throw err;
  }
  throw new Error('expected the server to close the socket');
}

describe('gatehouse web: the API socket', () => {
  it('refuses the upgrade with a wrong Origin or none (403), or on another path (404), token or not', async () => {
    expect(await refusal(openApiSocket(web.port, { token: web.token, origin: 'http://evil.example' }))).toBe(403);
    expect(
      await refusal(openApiSocket(web.port, { token: web.token, origin: `http://127.0.0.1:${web.port + 1}` })),
    ).toBe(403);
    expect(await refusal(openApiSocket(web.port, { token: web.token, origin: 'null' }))).toBe(403);
    expect(
      await refusal(
        openApiSocket(web.port, {
          token: null,
          cookie: `gh_token_${web.port}=${web.token}`,
          origin: 'https://evil.example',
        }),
      ),
    ).toBe(403);
    expect(await refusal(openApiSocket(web.port, { token: web.token, path: '/api/other' }))).toBe(404);
  });

  it('closes a socket whose first frame is not the right token (4401), answering nothing and pushing no event', async () => {
    const wrong = web.token.slice(0, -1) + (web.token.endsWith('A') ? 'B' : 'A');
    expect(await closedWith(openApiSocket(web.port, { token: wrong }))).toEqual({
      code: SOCKET_UNAUTHORIZED,
      reason: 'unauthorized: wrong token',
    });
    expect(await closedWith(openApiSocket(web.port, { token: 'x'.repeat(600) }))).toMatchObject({
      code: SOCKET_UNAUTHORIZED,
    });
    // A request as the first frame (the old cookie or query credential is no credential any more).
    const raw = await openApiSocket(web.port, { token: null, cookie: `gh_token_${web.port}=${web.token}` });
    const closed = new Promise<number>((resolve) => raw.ws.once('close', (code) => resolve(code)));
    raw.sendRaw(JSON.stringify({ id: 1, channel: 'listRecentProjects', payload: {} }));
    expect(await closed).toBe(SOCKET_UNAUTHORIZED);
    expect(raw.frames).toEqual([]);
  });

  it('accepts the token as the first frame, from the localhost origin too', async () => {
    const s = await openApiSocket(web.port, { token: web.token, origin: `http://localhost:${web.port}` });
    expect(s.frames[0]).toEqual({ kind: 'authenticated' });
    const frame = await s.call('listRecentProjects', {});
    expect(frame).toMatchObject({ kind: 'response', ok: true, result: { paths: [project] } });
    await s.close();
  });

  it('answers malformed frames with a BAD_REQUEST error frame and stays usable', async () => {
    const s = await openApiSocket(web.port, { token: web.token });
    s.sendRaw('this is not json');
    expect(await s.waitFor((f) => f.kind === 'error')).toMatchObject({
      kind: 'error',
      id: null,
      error: { code: 'BAD_REQUEST' },
    });
    s.sendRaw(JSON.stringify({ channel: 'getAppInfo', payload: {} }));
    expect(await s.waitFor((f) => f.kind === 'error')).toMatchObject({
      id: null,
      error: { code: 'BAD_REQUEST', message: expect.stringMatching(/id/) },
    });
    s.sendRaw(JSON.stringify({ id: 'seven', channel: 'getAppInfo' }));
    expect(await s.waitFor((f) => f.kind === 'error')).toMatchObject({ id: null, error: { code: 'BAD_REQUEST' } });
    s.sendRaw(JSON.stringify({ id: 41, channel: 12 }));
    expect(await s.waitFor((f) => f.kind === 'error')).toMatchObject({ id: 41, error: { code: 'BAD_REQUEST' } });
    s.sendRaw(Buffer.from([0x7b, 0x00, 0xff]));
    expect(await s.waitFor((f) => f.kind === 'error')).toMatchObject({ id: null, error: { code: 'BAD_REQUEST' } });
    expect(await s.call('__proto__', {})).toMatchObject({ kind: 'error', error: { code: 'UNKNOWN_METHOD' } });
    expect(await s.call('openProject', { path: 42 })).toMatchObject({
      kind: 'error',
      error: { code: 'BAD_REQUEST', message: expect.stringMatching(/openProject\.path/) },
    });
    expect(await s.call('getAppInfo', { extra: true })).toMatchObject({
      kind: 'error',
      error: { code: 'BAD_REQUEST' },
    });
    expect(await s.call('openFolderDialog', {})).toMatchObject({ kind: 'error', error: { code: 'FORBIDDEN' } });
    const ok = await s.call('getAppInfo', {});
    expect(ok).toMatchObject({ kind: 'response', ok: true });
    await s.close();
  });

  it('closes the socket on a frame over 1 MB (and the server keeps serving others)', async () => {
    const s = await openApiSocket(web.port, { token: web.token });
    const closed = new Promise<number>((resolve) => s.ws.once('close', (code) => resolve(code)));
    s.sendRaw(JSON.stringify({ id: 1, channel: 'getAppInfo', payload: { pad: 'x'.repeat(1024 * 1024 + 10) } }));
    expect(await closed).toBe(1009);
    const other = await openApiSocket(web.port, { token: web.token });
    expect(await other.call('getAppInfo', {})).toMatchObject({ kind: 'response', ok: true });
    await other.close();
  });

  it('round-trips getAppInfo and pingWorker to the live worker: a real, separate child process', async () => {
    const s = await openApiSocket(web.port, { token: web.token });
    const infoFrame = await s.call('getAppInfo', {});
    if (infoFrame.kind !== 'response') throw new Error(JSON.stringify(infoFrame));
    const info = AppInfoSchema.parse(infoFrame.result);
    expect(info).toMatchObject({ name: 'Gatehouse', shell: 'browser', project });
    expect(info.worker.state).toBe('ready');

    const pingFrame = await s.call('pingWorker', {});
    if (pingFrame.kind !== 'response') throw new Error(JSON.stringify(pingFrame));
    const worker = WorkerInfoSchema.parse(pingFrame.result);
    const serverPid = web.proc.pid ?? -1;
    expect(worker.pid).not.toBe(serverPid);
    expect(worker.pid).not.toBe(process.pid);
    expect(worker.pid).toBe(info.worker.info?.pid);
    expect(isProcessAlive(worker.pid)).toBe(true);
    expect(parentPid(worker.pid)).toBe(serverPid);
    expect(fs.readFileSync(`/proc/${worker.pid}/cmdline`, 'utf8')).toContain('worker.js');
    expect(worker.version).toBe(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version);
    await s.close();
  });

  it('pushes events: opening a project reaches every connected socket', async () => {
    const other = makeTempDir('gh-web-other-');
    const a = await openApiSocket(web.port, { token: web.token });
    const b = await openApiSocket(web.port, { token: web.token });
    try {
      expect(await a.call('openProject', { path: other })).toMatchObject({
        kind: 'response',
        ok: true,
        result: { path: other },
      });
      expect(await b.waitFor((f) => f.kind === 'event')).toEqual({
        kind: 'event',
        event: { type: 'projectChanged', path: other },
      });
      expect(await a.call('openProject', { path: path.join(other, 'missing') })).toMatchObject({
        kind: 'error',
        error: { code: 'NOT_FOUND' },
      });
      expect(await a.call('openProject', { path: project })).toMatchObject({ kind: 'response', ok: true });
    } finally {
      await a.close();
      await b.close();
      removeTempDir(other);
    }
  });
});

describe('gatehouse web: lifecycle', () => {
  it('rejects a bad --port with a usage error', async () => {
    await expect(startWeb({ args: ['--port', '70000'], timeoutMs: 10_000 })).rejects.toThrow(
      /--port must be 0\.\.65535/,
    );
  });

  it('says plainly when the port is taken', async () => {
    const second = startWeb({ args: ['--port', String(web.port)], timeoutMs: 10_000 });
    await expect(second).rejects.toThrow(new RegExp(`port ${web.port} on 127.0.0.1 is in use: pass --port 0`));
  });

  it('stops the worker and exits 0 on SIGTERM', async () => {
    const own = await startWeb();
    const s = await openApiSocket(own.port, { token: own.token });
    const ping = await s.call('pingWorker', {});
    if (ping.kind !== 'response') throw new Error(JSON.stringify(ping));
    const workerPid = WorkerInfoSchema.parse(ping.result).pid;
    const closed = new Promise<void>((resolve) => s.ws.once('close', () => resolve()));
    const pid = own.proc.pid ?? -1;
    own.proc.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => own.proc.once('exit', (c) => resolve(c)));
    await closed;
    expect(code).toBe(0);
    expect(isProcessAlive(pid)).toBe(false);
    expect(isProcessAlive(workerPid)).toBe(false);
    await own.stop();
  });
});
