/**
 * Addresses a listed *name* must not lead a sandboxed command to (DNS is controlled by whoever owns the name): every
 * private, shared, reserved, loopback, link-local, multicast and documentation range of IANA's special-purpose
 * registries, cloud metadata endpoints, and this machine's own addresses. Ranges are matched by Node's
 * `net.BlockList`; IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, SIIT) are judged by the
 * IPv4 address they carry.
 */
import * as net from 'node:net';
import * as os from 'node:os';

interface Range {
  network: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
  label: string;
}

const RANGES: readonly Range[] = [
  { network: '0.0.0.0', prefix: 8, family: 'ipv4', label: '"this network" 0.0.0.0/8' },
  { network: '10.0.0.0', prefix: 8, family: 'ipv4', label: 'private network 10.0.0.0/8' },
  { network: '100.64.0.0', prefix: 10, family: 'ipv4', label: 'carrier-grade NAT 100.64.0.0/10' },
  { network: '127.0.0.0', prefix: 8, family: 'ipv4', label: 'loopback 127.0.0.0/8' },
  { network: '169.254.0.0', prefix: 16, family: 'ipv4', label: 'link-local 169.254.0.0/16 (cloud metadata)' },
  { network: '172.16.0.0', prefix: 12, family: 'ipv4', label: 'private network 172.16.0.0/12' },
  { network: '192.0.0.0', prefix: 24, family: 'ipv4', label: 'IETF protocol assignments 192.0.0.0/24' },
  { network: '192.0.2.0', prefix: 24, family: 'ipv4', label: 'documentation 192.0.2.0/24' },
  { network: '192.88.99.0', prefix: 24, family: 'ipv4', label: '6to4 relay 192.88.99.0/24' },
  { network: '192.168.0.0', prefix: 16, family: 'ipv4', label: 'private network 192.168.0.0/16' },
  { network: '198.18.0.0', prefix: 15, family: 'ipv4', label: 'benchmarking 198.18.0.0/15' },
  { network: '198.51.100.0', prefix: 24, family: 'ipv4', label: 'documentation 198.51.100.0/24' },
  { network: '203.0.113.0', prefix: 24, family: 'ipv4', label: 'documentation 203.0.113.0/24' },
  { network: '224.0.0.0', prefix: 4, family: 'ipv4', label: 'multicast 224.0.0.0/4' },
  { network: '240.0.0.0', prefix: 4, family: 'ipv4', label: 'reserved 240.0.0.0/4 (and broadcast)' },
  { network: '168.63.129.16', prefix: 32, family: 'ipv4', label: 'Azure metadata 168.63.129.16' },
  { network: '::', prefix: 128, family: 'ipv6', label: 'unspecified ::' },
  { network: '::1', prefix: 128, family: 'ipv6', label: 'loopback ::1' },
  { network: '64:ff9b:1::', prefix: 48, family: 'ipv6', label: 'local-use NAT64 64:ff9b:1::/48' },
  { network: '100::', prefix: 64, family: 'ipv6', label: 'discard-only 100::/64' },
  {
    network: '2001::',
    prefix: 23,
    family: 'ipv6',
    label: 'IETF protocol assignments 2001::/23 (Teredo, benchmarking, ORCHID)',
  },
  { network: '2001:db8::', prefix: 32, family: 'ipv6', label: 'documentation 2001:db8::/32' },
  { network: '3fff::', prefix: 20, family: 'ipv6', label: 'documentation 3fff::/20' },
  { network: '5f00::', prefix: 16, family: 'ipv6', label: 'segment routing 5f00::/16' },
  { network: 'fc00::', prefix: 7, family: 'ipv6', label: 'unique-local fc00::/7' },
  { network: 'fe80::', prefix: 10, family: 'ipv6', label: 'link-local fe80::/10' },
  { network: 'fec0::', prefix: 10, family: 'ipv6', label: 'site-local fec0::/10' },
  { network: 'ff00::', prefix: 8, family: 'ipv6', label: 'multicast ff00::/8' },
];

/** IPv6 global unicast: every IPv6 address outside it (that carries no IPv4 address) is reserved or local. */
const GLOBAL_UNICAST_V6 = new net.BlockList();
GLOBAL_UNICAST_V6.addSubnet('2000::', 3, 'ipv6');

const CHECKS = RANGES.map((range) => {
  const list = new net.BlockList();
  list.addSubnet(range.network, range.prefix, range.family);
  return { list, range };
});

/** The 8 groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!net.isIPv6(address)) return null;
  // The WHATWG URL parser writes any IPv6 form (dotted tail, zeros, case) in one compressed hex form.
  const canonical = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

function ipv4Of(hi: number, lo: number): string {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, SIIT, NAT64 well-known prefix, 6to4), if any. */
export function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (g === null) return null;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroTo = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && g5 === 0xffff) return ipv4Of(g6, g7); // ::ffff:a.b.c.d (mapped)
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return ipv4Of(g6, g7); // ::ffff:0:a.b.c.d (SIIT)
  if (zeroTo(6) && (g6 !== 0 || g7 > 1)) return ipv4Of(g6, g7); // ::a.b.c.d (compatible, deprecated)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Of(g6, g7); // NAT64
  if (g0 === 0x2002) return ipv4Of(g1, g2); // 6to4
  return null;
}

/** This machine's own addresses (every interface, loopback included), read at the time of the check. */
export function hostAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((i) => i.address.replace(/%.*$/, ''));
}

function sameAddress(a: string, b: string): boolean {
  if (net.isIPv4(a) || net.isIPv4(b)) return a === b;
  const ga = ipv6Groups(a);
  const gb = ipv6Groups(b);
  return ga !== null && gb !== null && ga.every((x, i) => x === gb[i]);
}

/**
 * Why `address` is internal (the range's name), or null when it is a public address. Not an IP address at all:
 * internal (fail closed: the proxy only ever asks about resolved addresses).
 */
export function internalRange(addressIn: string, ownAddresses: readonly string[] = hostAddresses()): string | null {
  const address = addressIn
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '')
    .toLowerCase();
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (family === null) return 'not an IP address';
  const carried = family === 'ipv6' ? embeddedIPv4(address) : null;
  if (carried !== null) {
    const inner = internalRange(carried, ownAddresses);
    return inner === null ? null : `${inner}, carried in ${address}`;
  }
  for (const { list, range } of CHECKS) if (range.family === family && list.check(address, family)) return range.label;
  if (family === 'ipv6' && !GLOBAL_UNICAST_V6.check(address, 'ipv6'))
    return 'reserved IPv6 space (outside global unicast 2000::/3)';
  if (ownAddresses.some((own) => sameAddress(own, address))) return 'an address of this machine';
  return null;
}

export function isInternalAddress(address: string, ownAddresses?: readonly string[]): boolean {
  return internalRange(address, ownAddresses) !== null;
}
