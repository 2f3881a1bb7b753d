/**
 * The worker-side proxy that is a sandboxed command's only way out: it listens on a unix socket (bound into the
 * sandbox and bridged to loopback there by socat) and connects only to allowed domains. One socket speaks two
 * protocols, told apart by the first byte: SOCKS5 (0x05, for any TCP: `ALL_PROXY=socks5h://...`) and HTTP
 * (HTTPS through CONNECT, plain HTTP as absolute-URI requests). A refused destination gets a 403 (HTTP) or reply
 * 0x02 (SOCKS) naming nothing the command could use, and is recorded for the violation message.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { DestinationJudge, type ProxyDenial } from './destination-judge';
import { normaliseHost } from './domain-policy';
import { SOCKS_VERSION, serveSocks5 } from './socks5';

export type { ProxyDenial } from './destination-judge';
const PROXY_DENIED_HEADER = 'X-Gatehouse-Sandbox';

export class DomainProxy {
  private readonly front: net.Server;
  private readonly http: http.Server;
  private readonly sockets = new Set<net.Socket>();

  private constructor(private readonly judge: DestinationJudge) {
    this.http = http.createServer((req, res) => void this.forwardHttp(req, res));
    this.http.on(
      'connect',
      (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head),
    );
    this.front = net.createServer((socket) => this.accept(socket));
  }

  /** On a unix socket path (bubblewrap: bridged in by socat), or on a loopback TCP port (Seatbelt: port 0 picks one). */
  static async listen(
    where: string | { host: string; port: number },
    allowedDomains: readonly string[],
  ): Promise<DomainProxy> {
    const proxy = new DomainProxy(new DestinationJudge(allowedDomains));
    await new Promise<void>((resolve, reject) => {
      proxy.front.once('error', reject);
      const ready = (): void => {
        proxy.front.off('error', reject);
        resolve();
      };
      if (typeof where === 'string') proxy.front.listen(where, ready);
      else proxy.front.listen(where.port, where.host, ready);
    });
    return proxy;
  }

  /** The TCP port it listens on, or null on a unix socket. */
  get port(): number | null {
    const address = this.front.address();
    return typeof address === 'object' && address !== null ? address.port : null;
  }

  /** Denials since `since` (ms epoch), newest last. */
  recentDenials(since = 0): ProxyDenial[] {
    return this.judge.recentDenials(since);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.front.close(() => resolve()));
  }

  /** The first byte says which protocol the client speaks; the bytes read are handed on, never lost. */
  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.pause();
      if (first[0] === SOCKS_VERSION) {
        socket.resume();
        void serveSocks5(socket, first, this.judge);
        return;
      }
      socket.unshift(first);
      this.http.emit('connection', socket);
      socket.resume();
    });
  }

  private async tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url ?? '');
    const verdict =
      target === null
        ? { ok: false as const, reason: 'malformed CONNECT target' }
        : await this.judge.judge(target.host, target.port);
    if (!verdict.ok || target === null) {
      const body = `blocked by sandbox: ${verdict.ok ? 'malformed request' : verdict.reason}\n`;
      client.end(
        `HTTP/1.1 403 Forbidden\r\n${PROXY_DENIED_HEADER}: denied\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    let connected = false;
    const upstream = net.connect(target.port, verdict.address, () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      // A 502 only before the tunnel exists: inside it, it would be mixed into the data.
      if (connected) client.destroy();
      else if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  }

  private async forwardHttp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      res
        .writeHead(400, { 'Content-Type': 'text/plain' })
        .end('blocked by sandbox: only absolute http:// requests and CONNECT are proxied\n');
      return;
    }
    const port = url.port === '' ? 80 : Number(url.port);
    const verdict = await this.judge.judge(url.hostname, port);
    if (!verdict.ok) {
      res
        .writeHead(403, { 'Content-Type': 'text/plain', [PROXY_DENIED_HEADER]: 'denied' })
        .end(`blocked by sandbox: ${verdict.reason}\n`);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request(
      { host: verdict.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end();
    });
    req.pipe(upstream);
  }
}

/** `host:port` or `[v6]:port` from a CONNECT line. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(authority);
  if (m?.[1] === undefined || m[2] === undefined) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: normaliseHost(m[1]), port };
}
