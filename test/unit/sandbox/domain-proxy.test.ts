import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainProxy } from '../../../src/sandbox/domain-proxy';

/**
 * Sends `request` and collects the answer: until `done` says it is complete (then at once), or else until 50 ms after
 * the end of the first headers (a short body), or the socket closes, or 10 s pass.
 */
function rawExchange(socketPath: string, request: string, done?: (data: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    const sock = net.connect(socketPath, () => sock.write(request));
    let data = '';
    sock.on('data', (d) => {
      data += d.toString();
      if (done?.(data)) sock.destroy();
      else if (!done && data.includes('\r\n\r\n')) setTimeout(() => sock.destroy(), 50);
    });
    sock.on('close', () => resolve(data));
    sock.on('error', () => resolve(data));
    setTimeout(() => sock.destroy(), 10_000);
  });
}

const upstreamAnswered = (data: string): boolean => data.includes('hello-upstream');

describe('DomainProxy (unix socket)', () => {
  let dir: string;
  let proxy: DomainProxy;
  let upstream: http.Server;
  let port = 0;
  let socketPath = '';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-proxy-test-'));
    upstream = http.createServer((_req, res) => res.end('hello-upstream'));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    port = (upstream.address() as AddressInfo).port;
    socketPath = path.join(dir, 'proxy.sock');
    proxy = await DomainProxy.listen(socketPath, [`127.0.0.1:${port}`]);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((r) => upstream.close(() => r()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('forwards an allowed absolute-URI request and tunnels an allowed CONNECT', async () => {
    expect(
      await rawExchange(
        socketPath,
        `GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
        upstreamAnswered,
      ),
    ).toContain('hello-upstream');
    const tunnel = await rawExchange(
      socketPath,
      `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n`,
      upstreamAnswered,
    );
    expect(tunnel).toMatch(/^HTTP\/1.1 200 Connection Established/);
    expect(tunnel).toContain('hello-upstream');
  });

  it('refuses what is not allowed, and records it', async () => {
    const since = Date.now();
    const denied = await rawExchange(socketPath, 'CONNECT 127.0.0.2:22 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(denied).toMatch(/^HTTP\/1.1 403/);
    expect(denied).toContain('blocked by sandbox: network access to 127.0.0.2:22 is not in the allowed domains');
    expect(proxy.recentDenials(since).map((d) => `${d.host}:${d.port}`)).toEqual(['127.0.0.2:22']);
  });

  it('refuses malformed and non-proxy requests', async () => {
    expect(await rawExchange(socketPath, 'CONNECT /etc/passwd HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1.1 403/);
    expect(await rawExchange(socketPath, 'GET /relative HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).toMatch(
      /^HTTP\/1.1 400/,
    );
    expect(await rawExchange(socketPath, `GET file:///etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(
      /^HTTP\/1.1 400/,
    );
    expect(await rawExchange(socketPath, 'garbage\r\n\r\n')).toMatch(/^HTTP\/1.1 400|^$/);
  });
});
