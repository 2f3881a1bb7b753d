/**
 * Where a sandboxed command may connect, for both proxies (HTTP and SOCKS5): the host must be in the allowed
 * domains, a name is resolved here on the host (never by the command), and a listed name must not resolve to an
 * internal address. Every refusal is kept for a while so the violation message can name it.
 */
import * as dns from 'node:dns/promises';
import * as net from 'node:net';
import { DomainPolicy, normaliseHost } from './domain-policy';
import { hostAddresses, internalRange } from './internal-address';

export interface ProxyDenial {
  host: string;
  port: number;
  reason: string;
  at: number;
}

export type Verdict = { ok: true; address: string } | { ok: false; reason: string };

const MAX_DENIALS_KEPT = 50;

export class DestinationJudge {
  private readonly policy: DomainPolicy;
  private readonly denials: ProxyDenial[] = [];

  constructor(allowedDomains: readonly string[]) {
    this.policy = new DomainPolicy(allowedDomains);
  }

  /** Denials since `since` (ms epoch), newest last. */
  recentDenials(since = 0): ProxyDenial[] {
    return this.denials.filter((d) => d.at >= since);
  }

  /** Records a refusal that happened before a destination was known (a malformed request). */
  deny(host: string, port: number, reason: string): Verdict {
    this.denials.push({ host, port, reason, at: Date.now() });
    if (this.denials.length > MAX_DENIALS_KEPT) this.denials.shift();
    return { ok: false, reason };
  }

  async judge(hostIn: string, port: number): Promise<Verdict> {
    const host = normaliseHost(hostIn);
    if (!this.policy.allows(host, port))
      return this.deny(host, port, `network access to ${host}:${port} is not in the allowed domains`);
    if (net.isIP(host) !== 0) return { ok: true, address: host };
    let addresses: string[];
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return this.deny(host, port, `could not resolve ${host}`);
    }
    const own = hostAddresses();
    const usable = addresses.find((a) => internalRange(a, own) === null || this.policy.allowsLiteral(a, port));
    if (usable !== undefined) return { ok: true, address: usable };
    const first = addresses[0] ?? '';
    return this.deny(
      host,
      port,
      `${host} resolves to an internal address (${first}: ${internalRange(first, own) ?? 'internal'}); list ${first.includes(':') ? `[${first}]` : first}:${port} in sandbox.network.allowedDomains to allow it`,
    );
  }
}
