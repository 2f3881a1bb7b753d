import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainProxy } from '../../../src/sandbox/domain-proxy';
import { formatIPv6 } from '../../../src/sandbox/socks5';

// The SOCKS5 side of the sandbox's proxy socket, spoken to byte by byte by a raw client.

/** A raw client: sends `chunks` (with a pause between them), collects everything until the proxy closes or `untilBytes`. */
function exchange(
  socketPath: string,
  chunks: Buffer[],
  untilBytes = Infinity,
  timeoutMs = 3_000,
): Promise<{ data: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const sock = net.connect(socketPath);
    let data = Buffer.alloc(0);
    let closed = false;
    const done = () => resolve({ data, closed });
    sock.on('connect', async () => {
      for (const c of chunks) {
        if (sock.destroyed) break;
        sock.write(c);
        // eslint-disable-next-line tests/no-fixed-sleep -- a client whose request arrives in pieces is the case tested
        await new Promise((r) => setTimeout(r, 15));
      }
    });
    sock.on('data', (d: Buffer) => {
      data = Buffer.concat([data, d]);
      if (data.length >= untilBytes) sock.destroy();
    });
    sock.on('end', () => (closed = true));
    sock.on('close', done);
    sock.on('error', () => undefined);
    setTimeout(() => sock.destroy(), timeoutMs);
  });
}

const b = (...bytes: number[]) => Buffer.from(bytes);
const port16 = (p: number) => [p >> 8, p & 0xff];
const hello = b(5, 1, 0);
const connectV4 = (ip: string, p: number) => b(5, 1, 0, 1, ...ip.split('.').map(Number), ...port16(p));
const connectName = (name: string, p: number) =>
  Buffer.concat([b(5, 1, 0, 3, name.length), Buffer.from(name), b(...port16(p))]);
const connectV6 = (bytes: number[], p: number) => b(5, 1, 0, 4, ...bytes, ...port16(p));
const LOOPBACK_V6 = [...new Array<number>(15).fill(0), 1];

describe('SOCKS5 through the sandbox proxy socket', () => {
  let dir: string;
  let proxy: DomainProxy;
  let socketPath = '';
  let echo: net.Server;
  let echo6: net.Server | null = null;
  let port = 0;
  let port6 = 0;
  let closedPort = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-socks-test-'));
    const onEcho = (s: net.Socket) => s.on('data', (d) => s.write(Buffer.concat([Buffer.from('echo:'), d])));
    echo = net.createServer(onEcho);
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    port = (echo.address() as AddressInfo).port;
    echo6 = await new Promise<net.Server | null>((resolve) => {
      const s = net.createServer(onEcho).once('error', () => resolve(null));
      s.listen(0, '::1', () => resolve(s));
    });
    port6 = echo6 ? (echo6.address() as AddressInfo).port : 0;
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    socketPath = path.join(dir, 'proxy.sock');
    // `localhost` is listed with its literal address, so a name resolving to loopback is usable (the user listed both).
    proxy = await DomainProxy.listen(socketPath, [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port6 || 1}`,
      `127.0.0.1:${closedPort}`,
      'localhost:9',
    ]);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((r) => echo.close(() => r()));
    if (echo6) await new Promise<void>((r) => echo6!.close(() => r()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('CONNECT to an allowed IPv4 address: method 0x00, reply 0x00, then raw bytes both ways (early data kept)', async () => {
    const { data } = await exchange(
      socketPath,
      [Buffer.concat([hello, connectV4('127.0.0.1', port), Buffer.from('early')]), Buffer.from('-late')],
      2 + 10 + 16,
    );
    expect([...data.subarray(0, 2)]).toEqual([5, 0]);
    expect([...data.subarray(2, 5)]).toEqual([5, 0, 0]);
    expect(data.subarray(12).toString()).toMatch(/^echo:early(echo:-late)?/);
  });

  it('CONNECT by name (socks5h): the proxy resolves it on the host', async () => {
    const { data } = await exchange(
      socketPath,
      [hello, connectName('localhost', port), Buffer.from('by-name')],
      2 + 10 + 12,
    );
    expect(data[3]).toBe(0);
    expect(data.subarray(12).toString()).toBe('echo:by-name');
  });

  it('CONNECT to an allowed IPv6 address (when this machine has ::1)', async () => {
    if (echo6 === null) return console.warn('no IPv6 loopback here: the IPv6 CONNECT was not exercised');
    const { data } = await exchange(socketPath, [hello, connectV6(LOOPBACK_V6, port6), Buffer.from('v6')], 2 + 10 + 7);
    expect(data[3]).toBe(0);
    expect(data.subarray(12).toString()).toBe('echo:v6');
  });

  it('a destination that is not allowed gets reply 0x02 and is recorded; so does another port of an allowed host', async () => {
    const since = Date.now();
    for (const request of [
      connectName('example.com', 443),
      connectV4('127.0.0.1', port === 65535 ? 1 : port + 1),
      connectV6(LOOPBACK_V6, 22),
    ]) {
      const { data, closed } = await exchange(socketPath, [hello, request]);
      expect([...data]).toEqual([5, 0, 5, 2, 0, 1, 0, 0, 0, 0, 0, 0]);
      expect(closed).toBe(true);
    }
    const reasons = proxy.recentDenials(since).map((d) => d.reason);
    expect(reasons[0]).toBe('network access to example.com:443 is not in the allowed domains');
    expect(reasons[2]).toBe('network access to ::1:22 is not in the allowed domains');
  });

  it('a name that resolves to an internal address is refused unless that address is listed too', async () => {
    const { data } = await exchange(socketPath, [hello, connectName('localhost', 9)]);
    expect([...data.subarray(2)]).toEqual([5, 2, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(proxy.recentDenials().at(-1)?.reason).toMatch(
      /^localhost resolves to an internal address \((127\.0\.0\.1: loopback 127\.0\.0\.0\/8|::1: loopback ::1)\); list (127\.0\.0\.1|\[::1\]):9 in sandbox\.network\.allowedDomains to allow it$/,
    );
  });

  it('only "no authentication" is offered: username/password or GSSAPI alone gets 0xFF', async () => {
    for (const greeting of [b(5, 1, 2), b(5, 2, 1, 2), b(5, 0)]) {
      const { data, closed } = await exchange(socketPath, [greeting]);
      expect([...data]).toEqual([5, 0xff]);
      expect(closed).toBe(true);
    }
  });

  it('BIND and UDP ASSOCIATE get 0x07; an unknown address type 0x08; a bad request version 0x01', async () => {
    for (const [request, code] of [
      [b(5, 2, 0, 1, 127, 0, 0, 1, ...port16(port)), 7],
      [b(5, 3, 0, 1, 0, 0, 0, 0, 0, 0), 7],
      [b(5, 1, 0, 9, 1, 2, 3, 4), 8],
      [b(4, 1, 0, 1, 127, 0, 0, 1, ...port16(port)), 1],
      [b(5, 1, 0, 3, 0, 0, 80), 1],
    ] as const) {
      const { data } = await exchange(socketPath, [hello, request]);
      expect(data[3], `request ${[...request].join(',')}`).toBe(code);
    }
  });

  it('malformed greetings and half handshakes are dropped without a reply, and the proxy keeps serving', async () => {
    // Not 0x05 first: it is read as HTTP, which refuses it; never a SOCKS reply, never a connection.
    const socks4 = await exchange(socketPath, [b(4, 1, ...port16(port), 127, 0, 0, 1, 0)], Infinity, 500);
    expect(socks4.data.toString()).toMatch(/^HTTP\/1\.1 400/);
    const half = await exchange(socketPath, [b(5, 3, 0)], Infinity, 300); // promises 3 methods, sends 1, hangs up
    expect(half.data.length).toBe(0);
    const truncated = await exchange(socketPath, [hello, b(5, 1, 0, 1, 127, 0)], Infinity, 300);
    expect([...truncated.data]).toEqual([5, 0]);
    const after = await exchange(socketPath, [hello, connectV4('127.0.0.1', port), Buffer.from('still')], 2 + 10 + 10);
    expect(after.data.subarray(12).toString()).toBe('echo:still');
  });

  it('a handshake split into single bytes works', async () => {
    const all = Buffer.concat([hello, connectV4('127.0.0.1', port), Buffer.from('x')]);
    const { data } = await exchange(
      socketPath,
      [...all].map((byte) => b(byte)),
      2 + 10 + 6,
    );
    expect(data.subarray(12).toString()).toBe('echo:x');
  });

  it('an allowed destination with nothing listening gets 0x05 (connection refused)', async () => {
    const { data } = await exchange(socketPath, [hello, connectV4('127.0.0.1', closedPort)]);
    expect([...data.subarray(2, 4)]).toEqual([5, 5]);
  });

  it('an upstream reset inside the tunnel closes the client, with no SOCKS reply mixed into the data', async () => {
    const rude = net.createServer((s) => s.write('bye', () => setTimeout(() => s.resetAndDestroy(), 20)));
    await new Promise<void>((r) => rude.listen(0, '127.0.0.1', r));
    const rudePort = (rude.address() as AddressInfo).port;
    const rudeProxy = await DomainProxy.listen(path.join(dir, 'rude.sock'), [`127.0.0.1:${rudePort}`]);
    try {
      const { data } = await exchange(path.join(dir, 'rude.sock'), [hello, connectV4('127.0.0.1', rudePort)]);
      expect([...data.subarray(2, 4)]).toEqual([5, 0]);
      expect(data.subarray(12).toString()).toBe('bye');
    } finally {
      await rudeProxy.close();
      await new Promise<void>((r) => rude.close(() => r()));
    }
  });

  it('HTTP still works on the same socket', async () => {
    const { data } = await exchange(
      socketPath,
      [Buffer.from('GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n')],
      Infinity,
      500,
    );
    expect(data.toString()).toContain('403 Forbidden');
  });

  it('IPv6 addresses are written the way the allow-list writes them', () => {
    expect(formatIPv6(Buffer.from(LOOPBACK_V6))).toBe('::1');
    expect(formatIPv6(Buffer.from([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))).toBe('2001:db8::1');
  });
});
