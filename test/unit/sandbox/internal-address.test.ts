import * as os from 'node:os';
import { describe, expect, it } from 'vitest';
import { DestinationJudge } from '../../../src/sandbox/destination-judge';
import { embeddedIPv4, hostAddresses, internalRange, isInternalAddress } from '../../../src/sandbox/internal-address';

/** Public addresses stand-ins for "this machine" never match in these tests (its own addresses are tested apart). */
const NO_OWN: string[] = [];
const internal = (a: string): boolean => isInternalAddress(a, NO_OWN);

describe('internal addresses a listed name must not resolve to', () => {
  const cases: Array<[string, string[], string[]]> = [
    // range, inside (first, middle, last), just outside
    ['this network 0.0.0.0/8', ['0.0.0.0', '0.1.2.3', '0.255.255.255'], ['1.0.0.0']],
    ['private 10.0.0.0/8', ['10.0.0.0', '10.0.0.1', '10.200.3.4', '10.255.255.255'], ['9.255.255.255', '11.0.0.0']],
    ['CGNAT 100.64.0.0/10', ['100.64.0.0', '100.100.100.200', '100.127.255.255'], ['100.63.255.255', '100.128.0.0']],
    ['loopback 127.0.0.0/8', ['127.0.0.1', '127.8.9.1', '127.255.255.255'], ['128.0.0.0', '126.255.255.255']],
    [
      'link-local 169.254.0.0/16',
      ['169.254.0.0', '169.254.169.254', '169.254.255.255'],
      ['169.253.255.255', '169.255.0.0'],
    ],
    ['private 172.16.0.0/12', ['172.16.0.0', '172.20.1.1', '172.31.255.255'], ['172.15.255.255', '172.32.0.0']],
    ['private 192.168.0.0/16', ['192.168.0.0', '192.168.1.1', '192.168.255.255'], ['192.167.255.255', '192.169.0.0']],
    [
      'documentation and benchmarking',
      ['192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '198.19.255.255', '192.0.0.8'],
      ['198.20.0.0', '203.0.114.1'],
    ],
    ['multicast and reserved', ['224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255'], ['223.255.255.255']],
    [
      'unique-local fc00::/7',
      ['fc00::', 'fd00::1', 'fd00:ec2::254', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
      ['2a00:1450::1'],
    ],
    ['link-local fe80::/10', ['fe80::', 'fe80::1', 'FE80::ABCD', 'febf:ffff::1', 'fe80::1%eth0'], ['2606:4700::1']],
    [
      'IPv6 loopback, unspecified, multicast, documentation',
      ['::1', '::', '0:0:0:0:0:0:0:1', 'ff02::1', '2001:db8::1', '2001::1', '100::1'],
      ['2606:4700:4700::1111'],
    ],
    ['IPv6 outside global unicast 2000::/3', ['fe00::1', '4000::1', '1fff:ffff::1', 'e000::1'], ['2000::1', '3ffe::1']],
  ];
  for (const [name, inside, outside] of cases) {
    it(name, () => {
      for (const a of inside) expect(internal(a), a).toBe(true);
      for (const a of outside) expect(internal(a), a).toBe(false);
    });
  }

  it('judges IPv6 forms that carry an IPv4 address by that address', () => {
    for (const a of [
      '::ffff:10.0.0.1',
      '::ffff:a00:1',
      '::FFFF:127.0.0.1',
      '::ffff:0:192.168.1.1',
      '::10.0.0.1',
      '64:ff9b::10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:a00:1::1',
      '2002:7f00:1::',
    ]) {
      expect(internal(a), a).toBe(true);
    }
    for (const a of ['::ffff:93.184.216.34', '64:ff9b::5db8:d822', '2002:5db8:d822::1'])
      expect(internal(a), a).toBe(false);
    expect(embeddedIPv4('::ffff:a00:1')).toBe('10.0.0.1');
    expect(embeddedIPv4('2002:c0a8:101::1')).toBe('192.168.1.1');
    expect(embeddedIPv4('2606:4700::1')).toBeNull();
    expect(internalRange('::ffff:10.0.0.1', NO_OWN)).toBe('private network 10.0.0.0/8, carried in ::ffff:10.0.0.1');
    expect(internalRange('fd12::1', NO_OWN)).toBe('unique-local fc00::/7');
    expect(internalRange('fe80::1', NO_OWN)).toBe('link-local fe80::/10');
    expect(internalRange('100.64.1.1', NO_OWN)).toBe('carrier-grade NAT 100.64.0.0/10');
  });

  it("counts this machine's own addresses, on every interface, as internal", () => {
    const own = hostAddresses();
    expect(own.length).toBeGreaterThan(0);
    for (const a of own) expect(isInternalAddress(a), a).toBe(true);
    expect(Object.values(os.networkInterfaces()).flat().length).toBe(own.length);
    // a public address is internal when the machine holds it
    expect(isInternalAddress('93.184.216.34', ['93.184.216.34'])).toBe(true);
    expect(isInternalAddress('::ffff:93.184.216.34', ['93.184.216.34'])).toBe(true);
    expect(isInternalAddress('2606:4700:0:0::1', ['2606:4700::1'])).toBe(true);
    expect(isInternalAddress('93.184.216.34', ['93.184.216.35'])).toBe(false);
  });

  it('treats what is not an IP address as internal (fail closed)', () => {
    for (const a of ['', 'localhost', '0x7f000001', '2130706433', '0177.0.0.1', '127.1', '1.2.3.4.5'])
      expect(internal(a), a).toBe(true);
  });
});

describe("the proxy's destination judge", () => {
  it('refuses a listed name that resolves to an internal address, saying which and how to allow it', async () => {
    const judge = new DestinationJudge(['localhost:8080']);
    const verdict = await judge.judge('localhost', 8080);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toMatch(
      /^localhost resolves to an internal address \((127\.0\.0\.1|::1): loopback/,
    );
  });

  it('resolves hex, octal and decimal spellings of a listed "name" and refuses the internal address they mean', async () => {
    const meant: Record<string, string> = {
      '2130706433': '127.0.0.1',
      '0x7f000001': '127.0.0.1',
      '0x7f.0.0.1': '127.0.0.1',
      '0177.0.0.1': '127.0.0.1',
      '127.1': '127.0.0.1',
      '0xa000001': '10.0.0.1',
    };
    for (const [spelled, address] of Object.entries(meant)) {
      const verdict = await new DestinationJudge([spelled]).judge(spelled, 443);
      expect(verdict.ok ? '' : verdict.reason, spelled).toBe(
        `${spelled} resolves to an internal address (${address}: ${address.startsWith('10.') ? 'private network 10.0.0.0/8' : 'loopback 127.0.0.0/8'}); list ${address}:443 in sandbox.network.allowedDomains to allow it`,
      );
    }
  });

  it('lets an IP literal through only when it is listed itself, also an internal one', async () => {
    const judge = new DestinationJudge(['10.1.2.3:5432', '[fd00::5]:443']);
    expect(await judge.judge('10.1.2.3', 5432)).toEqual({ ok: true, address: '10.1.2.3' });
    expect(await judge.judge('[fd00::5]', 443)).toEqual({ ok: true, address: 'fd00::5' });
    expect((await judge.judge('10.1.2.4', 5432)).ok).toBe(false);
    expect((await judge.judge('10.1.2.3', 5433)).ok).toBe(false);
  });

  it('lets a listed name reach an internal address that is listed too', async () => {
    const judge = new DestinationJudge(['localhost:9000', '127.0.0.1:9000', '[::1]:9000']);
    const verdict = await judge.judge('localhost', 9000);
    expect(verdict.ok).toBe(true);
  });
});
