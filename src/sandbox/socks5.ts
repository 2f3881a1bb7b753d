/**
 * SOCKS5 (RFC 1928) for sandboxed commands: CONNECT only, "no authentication" only, destinations judged by the
 * same allow-list as the HTTP proxy. Names are resolved here on the host (`socks5h`): the command has no DNS. A
 * refused destination gets reply 0x02 ("connection not allowed by ruleset") and is recorded for the violation.
 */
import * as net from 'node:net';
import type { DestinationJudge } from './destination-judge';

export const SOCKS_VERSION = 0x05;
const SocksReply = {
  succeeded: 0x00,
  generalFailure: 0x01,
  notAllowed: 0x02,
  networkUnreachable: 0x03,
  hostUnreachable: 0x04,
  connectionRefused: 0x05,
  commandNotSupported: 0x07,
  addressTypeNotSupported: 0x08,
} as const;
const NO_AUTH = 0x00;
const NO_ACCEPTABLE_METHOD = 0xff;
const CMD_CONNECT = 0x01;
const ATYP_IPV4 = 0x01;
const ATYP_DOMAIN = 0x03;
const ATYP_IPV6 = 0x04;
const HANDSHAKE_TIMEOUT_MS = 10_000;

class HandshakeError extends Error {}

/** Reads exact byte counts from the start of a socket (the handshake), then hands the rest over. */
class ByteReader {
  private buffered: Buffer;
  private waiter: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | null = null;
  private ended = false;

  constructor(
    private readonly socket: net.Socket,
    first: Buffer,
  ) {
    this.buffered = first;
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('close', this.onEnd);
  }

  read(n: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.waiter = { n, resolve, reject };
      this.settle();
    });
  }

  /** Stops reading; returns what the client sent beyond the handshake (early data for the upstream). */
  detach(): Buffer {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('close', this.onEnd);
    const rest = this.buffered;
    this.buffered = Buffer.alloc(0);
    return rest;
  }

  private readonly onData = (chunk: Buffer): void => {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    this.settle();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    this.settle();
  };

  private settle(): void {
    const w = this.waiter;
    if (w === null) return;
    if (this.buffered.length >= w.n) {
      this.waiter = null;
      const out = this.buffered.subarray(0, w.n);
      this.buffered = this.buffered.subarray(w.n);
      w.resolve(out);
    } else if (this.ended) {
      this.waiter = null;
      w.reject(new HandshakeError('the client closed the connection during the SOCKS handshake'));
    }
  }
}

function reply(code: number): Buffer {
  return Buffer.from([SOCKS_VERSION, code, 0x00, ATYP_IPV4, 0, 0, 0, 0, 0, 0]);
}

function successReply(socket: net.Socket): Buffer {
  const address = socket.localAddress ?? '0.0.0.0';
  const port = Buffer.alloc(2);
  port.writeUInt16BE(socket.localPort ?? 0);
  if (net.isIPv4(address))
    return Buffer.concat([
      Buffer.from([SOCKS_VERSION, SocksReply.succeeded, 0, ATYP_IPV4, ...address.split('.').map(Number)]),
      port,
    ]);
  return Buffer.concat([reply(SocksReply.succeeded).subarray(0, 8), port]);
}

/** 16 bytes as the canonical (RFC 5952) text form, as the allow-list writes IPv6 literals: `::1`. */
export function formatIPv6(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

function failureFor(err: NodeJS.ErrnoException): number {
  switch (err.code) {
    case 'ECONNREFUSED':
      return SocksReply.connectionRefused;
    case 'ENETUNREACH':
      return SocksReply.networkUnreachable;
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
      return SocksReply.hostUnreachable;
    default:
      return SocksReply.generalFailure;
  }
}

type Target = { ok: true; host: string; port: number } | { ok: false; code: number };

async function readTarget(reader: ByteReader): Promise<Target> {
  const [version, command, , addressType] = await reader.read(4);
  if (version !== SOCKS_VERSION) return { ok: false, code: SocksReply.generalFailure };
  let host: string;
  if (addressType === ATYP_IPV4) host = [...(await reader.read(4))].join('.');
  else if (addressType === ATYP_IPV6) host = formatIPv6(await reader.read(16));
  else if (addressType === ATYP_DOMAIN) {
    const [length = 0] = await reader.read(1);
    if (length === 0) return { ok: false, code: SocksReply.generalFailure };
    host = (await reader.read(length)).toString('latin1');
  } else return { ok: false, code: SocksReply.addressTypeNotSupported };
  const port = (await reader.read(2)).readUInt16BE(0);
  // The address is read in full before a refusal, so the reply is never mistaken for early data.
  if (command !== CMD_CONNECT) return { ok: false, code: SocksReply.commandNotSupported };
  return { ok: true, host, port };
}

/** Serves one SOCKS5 client whose first bytes (`first`, starting with 0x05) were already read. */
export async function serveSocks5(client: net.Socket, first: Buffer, judge: DestinationJudge): Promise<void> {
  client.on('error', () => client.destroy());
  client.setTimeout(HANDSHAKE_TIMEOUT_MS, () => client.destroy());
  const reader = new ByteReader(client, first);
  let target: Target;
  try {
    const [version, methodCount = 0] = await reader.read(2);
    if (version !== SOCKS_VERSION) return void client.destroy();
    const methods = methodCount === 0 ? Buffer.alloc(0) : await reader.read(methodCount);
    if (!methods.includes(NO_AUTH)) return void client.end(Buffer.from([SOCKS_VERSION, NO_ACCEPTABLE_METHOD]));
    client.write(Buffer.from([SOCKS_VERSION, NO_AUTH]));
    target = await readTarget(reader);
  } catch {
    reader.detach();
    return void client.destroy();
  }
  if (!target.ok) {
    if (target.code === SocksReply.commandNotSupported)
      judge.deny('(socks)', 0, 'only SOCKS5 CONNECT is proxied (no BIND or UDP)');
    reader.detach();
    return void client.end(reply(target.code));
  }
  const verdict = await judge.judge(target.host, target.port);
  if (!verdict.ok) {
    reader.detach();
    return void client.end(reply(SocksReply.notAllowed));
  }
  if (client.destroyed) return void reader.detach();
  const upstream = net.connect(target.port, verdict.address);
  let connected = false;
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    reader.detach();
    // Before the tunnel exists the client gets a SOCKS failure reply; inside it, a reply would be garbage data.
    if (connected) client.destroy();
    else if (!client.destroyed) client.end(reply(failureFor(err)));
  });
  upstream.once('connect', () => {
    connected = true;
    client.setTimeout(0);
    const early = reader.detach();
    client.write(successReply(upstream));
    if (early.length > 0) upstream.write(early);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  client.on('close', () => upstream.destroy());
}
