import { describe, expect, it } from 'vitest';
import { DomainPolicy, isInternalAddress, parseDomainRule } from '../../../src/sandbox/domain-policy';
import { parseAuthority } from '../../../src/sandbox/domain-proxy';

describe('allowed domains', () => {
  it('parses names, wildcards, ports and IP literals; rejects the malformed', () => {
    expect(parseDomainRule('Example.COM.')).toEqual({ host: 'example.com', wildcard: false, port: null });
    expect(parseDomainRule('*.github.com')).toEqual({ host: 'github.com', wildcard: true, port: null });
    expect(parseDomainRule('api.x.io:443')).toEqual({ host: 'api.x.io', wildcard: false, port: 443 });
    expect(parseDomainRule('[::1]:3000')).toEqual({ host: '::1', wildcard: false, port: 3000 });
    for (const bad of ['', '*', '*.', 'a*.com', '::1', 'x.com:0', 'x.com:70000', 'user@x.com', 'x.com/path', 'a b']) {
      expect(parseDomainRule(bad), bad).toBeNull();
    }
  });

  it('matches exactly: no suffix tricks, wildcard means subdomains only, ports count', () => {
    const p = new DomainPolicy(['example.com', '*.github.com', '127.0.0.1:8080']);
    expect(p.allows('example.com', 443)).toBe(true);
    expect(p.allows('EXAMPLE.com.', 80)).toBe(true);
    expect(p.allows('api.example.com', 443)).toBe(false);
    expect(p.allows('evilexample.com', 443)).toBe(false);
    expect(p.allows('example.com.evil.io', 443)).toBe(false);
    expect(p.allows('api.github.com', 443)).toBe(true);
    expect(p.allows('github.com', 443)).toBe(false);
    expect(p.allows('evilgithub.com', 443)).toBe(false);
    expect(p.allows('127.0.0.1', 8080)).toBe(true);
    expect(p.allows('127.0.0.1', 8081)).toBe(false);
    expect(new DomainPolicy([]).isEmpty).toBe(true);
    expect(new DomainPolicy(['::bad::', '']).isEmpty).toBe(true);
  });

  it('knows which resolved addresses a name must not lead to', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.1',
      '0.0.0.0',
      '169.254.169.254',
      '::1',
      '::ffff:127.0.0.1',
      'fe80::1',
      '100.100.100.200',
      '10.0.0.1',
    ]) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '2606:4700::1']) expect(isInternalAddress(a), a).toBe(false);
  });

  it('parses CONNECT authorities strictly', () => {
    expect(parseAuthority('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseAuthority('[::1]:22')).toEqual({ host: '::1', port: 22 });
    for (const bad of [
      'example.com',
      'example.com:0',
      'example.com:99999',
      'a:b:c',
      ':443',
      'exa mple.com:443',
      '/etc/passwd',
    ]) {
      expect(parseAuthority(bad), bad).toBeNull();
    }
  });
});
