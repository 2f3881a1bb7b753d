/**
 * The worker-side HTTP proxy that is a sandboxed command's only way out: it listens on a unix socket (bound into
 * the sandbox and bridged to loopback there by socat) and connects only to allowed domains. HTTPS goes through
 * CONNECT; plain HTTP as absolute-URI requests. Anything else gets a 403 naming the host.
 */
import * as dns from 'node:dns/promises';
import * as http from 'node:http';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { DomainPolicy, isInternalAddress, normaliseHost } from './domain-policy';

export const PROXY_DENIED_HEADER = 'X-Gatehouse-Sandbox';

export interface ProxyDenial {
  host: string;
  port: number;
  reason: string;
  at: number;
}

type Verdict = { ok: true; address: string } | { ok: false; reason: string };

const MAX_DENIALS_KEPT = 50;

export class DomainProxy {
  private readonly server: http.Server;
  private readonly sockets = new Set<Duplex>();
  private readonly denials: ProxyDenial[] = [];

  private constructor(private readonly policy: DomainPolicy) {
    this.server = http.createServer((req, res) => void this.forwardHttp(req, res));
    this.server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head));
    this.server.on('connection', (s: net.Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  static async listen(socketPath: string, allowedDomains: readonly string[]): Promise<DomainProxy> {
    const proxy = new DomainProxy(new DomainPolicy(allowedDomains));
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(socketPath, () => {
        proxy.server.off('error', reject);
        resolve();
      });
    });
    return proxy;
  }

  /** Denials since `since` (ms epoch), newest last. */
  recentDenials(since = 0): ProxyDenial[] {
    return this.denials.filter((d) => d.at >= since);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private deny(host: string, port: number, reason: string): Verdict {
    this.denials.push({ host, port, reason, at: Date.now() });
    if (this.denials.length > MAX_DENIALS_KEPT) this.denials.shift();
    return { ok: false, reason };
  }

  private async judge(hostIn: string, port: number): Promise<Verdict> {
    const host = normaliseHost(hostIn);
    if (!this.policy.allows(host, port)) return this.deny(host, port, `network access to ${host}:${port} is not in the allowed domains`);
    if (net.isIP(host) !== 0) return { ok: true, address: host };
    let addresses: string[];
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return this.deny(host, port, `could not resolve ${host}`);
    }
    const usable = addresses.find((a) => !isInternalAddress(a) || this.policy.allowsLiteral(a, port));
    if (usable === undefined) return this.deny(host, port, `${host} resolves to an internal address`);
    return { ok: true, address: usable };
  }

  private async tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url ?? '');
    const verdict = target === null ? { ok: false as const, reason: 'malformed CONNECT target' } : await this.judge(target.host, target.port);
    if (!verdict.ok || target === null) {
      const body = `blocked by sandbox: ${verdict.ok ? 'malformed request' : verdict.reason}\n`;
      client.end(`HTTP/1.1 403 Forbidden\r\n${PROXY_DENIED_HEADER}: denied\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    const upstream = net.connect(target.port, verdict.address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  }

  private async forwardHttp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('blocked by sandbox: only absolute http:// requests and CONNECT are proxied\n');
      return;
    }
    const port = url.port === '' ? 80 : Number(url.port);
    const verdict = await this.judge(url.hostname, port);
    if (!verdict.ok) {
      res.writeHead(403, { 'Content-Type': 'text/plain', [PROXY_DENIED_HEADER]: 'denied' }).end(`blocked by sandbox: ${verdict.reason}\n`);
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
