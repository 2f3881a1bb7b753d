/** Which network destinations a sandboxed command may reach: `sandbox.network.allowedDomains`. */
import * as net from 'node:net';

export interface DomainRule {
  /** Lower-case host without brackets; for `*.x.com` the suffix `x.com`. */
  host: string;
  wildcard: boolean;
  /** Only this port when given. */
  port: number | null;
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export function normaliseHost(host: string): string {
  return stripBrackets(host.trim().toLowerCase()).replace(/\.$/, '');
}

/** Parses `example.com`, `*.example.com`, `api.example.com:443`, `127.0.0.1:8080`, `[::1]:3000`. Null when malformed. */
export function parseDomainRule(entry: string): DomainRule | null {
  let text = entry.trim().toLowerCase();
  if (text === '') return null;
  let port: number | null = null;
  const bracketed = /^(\[[0-9a-f:.]+\])(?::(\d+))?$/.exec(text);
  if (bracketed?.[1] !== undefined) {
    text = bracketed[1];
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else {
    const withPort = /^([^:]+):(\d+)$/.exec(text);
    if (withPort?.[1] !== undefined && withPort[2] !== undefined) {
      text = withPort[1];
      port = Number(withPort[2]);
    } else if (text.includes(':')) return null; // an unbracketed IPv6 literal is ambiguous
  }
  if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535)) return null;
  const wildcard = text.startsWith('*.');
  const host = normaliseHost(wildcard ? text.slice(2) : text);
  if (host === '' || host.includes('*') || /[\s/@]/.test(host)) return null;
  return { host, wildcard, port };
}

export class DomainPolicy {
  private readonly rules: DomainRule[];

  constructor(entries: readonly string[]) {
    this.rules = entries.map(parseDomainRule).filter((r): r is DomainRule => r !== null);
  }

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  allows(hostIn: string, port: number): boolean {
    const host = normaliseHost(hostIn);
    return this.rules.some((r) => {
      if (r.port !== null && r.port !== port) return false;
      if (r.wildcard) return host.endsWith(`.${r.host}`);
      return host === r.host;
    });
  }

  /** Whether an IP literal is itself listed (then a name may resolve to it even when it is loopback). */
  allowsLiteral(address: string, port: number): boolean {
    return net.isIP(normaliseHost(address)) !== 0 && this.allows(address, port);
  }
}

// Which resolved addresses a listed name must not lead to: see internal-address.ts.
export { isInternalAddress } from './internal-address';
