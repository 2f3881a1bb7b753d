import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closeServer,
  curlPath,
  domainSandboxes,
  listenOnLoopback,
  makeWorld,
  noBwrapReason,
  runIn,
  socatPath,
  type SandboxWorld,
} from '../unit/sandbox/support';

// Non-HTTP traffic from inside the sandbox: a raw TCP echo server is reachable through SOCKS5 (ALL_PROXY) only when
// its host is allowed. The client is a tiny Python program that speaks SOCKS5 itself, reading ALL_PROXY.

const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : null;
const skipReason =
  noBwrapReason ??
  (socatPath === null ? 'socat is not installed' : PYTHON === null ? 'python3 is not installed' : null);

const CLIENT = `
import os, socket, struct, sys
from urllib.parse import urlsplit
proxy = urlsplit(os.environ["ALL_PROXY"])
assert proxy.scheme == "socks5h", proxy.scheme
host, port = sys.argv[1], int(sys.argv[2])
s = socket.create_connection((proxy.hostname, proxy.port), timeout=5)
s.sendall(b"\\x05\\x01\\x00")
assert s.recv(2) == b"\\x05\\x00"
s.sendall(b"\\x05\\x01\\x00\\x03" + bytes([len(host)]) + host.encode() + struct.pack(">H", port))
reply = s.recv(10)
if reply[1] != 0:
    print("socks refused with code %d" % reply[1]); sys.exit(3)
s.sendall(b"raw-ping\\n")
print(s.recv(100).decode().strip())
`;

describe.skipIf(skipReason !== null)(
  `sandboxed commands: non-HTTP traffic through SOCKS5 (real bubblewrap${skipReason ? `; skipped: ${skipReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let echo: net.Server;
    let web: http.Server;
    let port = 0;
    let webPort = 0;
    const { withDomains: sandboxWith, disposeAll } = domainSandboxes(() => world);

    beforeAll(async () => {
      world = makeWorld();
      fs.writeFileSync(path.join(world.project, 'socks_client.py'), CLIENT);
      echo = net.createServer((s) => s.on('data', (d) => s.write(`echo:${d.toString()}`)));
      port = await listenOnLoopback(echo);
      web = http.createServer((_req, res) => res.end('hello-over-socks\n'));
      webPort = await listenOnLoopback(web);
    });
    afterEach(disposeAll);
    afterAll(async () => {
      await closeServer(echo);
      await closeServer(web);
      world?.remove();
    });

    it('reaches an allowed raw TCP server through ALL_PROXY=socks5h://... (HTTP_PROXY kept)', async () => {
      const sandbox = await sandboxWith([`127.0.0.1:${port}`]);
      const r = await runIn(sandbox, `echo "$HTTP_PROXY $ALL_PROXY"; ${PYTHON} socks_client.py 127.0.0.1 ${port}`);
      expect(r.output).toContain('http://127.0.0.1:3128 socks5h://127.0.0.1:3128');
      expect(r.output).toContain('echo:raw-ping');
      expect(r.exitCode).toBe(0);
      expect(r.violation).toBeNull();
    });

    it('refuses a host that is not allowed with SOCKS reply 0x02, and the command gets a clear error', async () => {
      const sandbox = await sandboxWith([`127.0.0.1:${webPort}`]);
      const r = await runIn(sandbox, `${PYTHON} socks_client.py 127.0.0.1 ${port}`);
      expect(r.output).toContain('socks refused with code 2');
      expect(r.output).not.toContain('echo:raw-ping');
      expect(r.exitCode).toBe(3);
      expect(r.violation).toBe(
        `blocked by sandbox: network access to 127.0.0.1:${port} is not in the allowed domains (allowed domains: 127.0.0.1:${webPort})`,
      );
    });

    it.skipIf(curlPath === null)('curl speaks socks5h through the same bridge', async () => {
      const sandbox = await sandboxWith([`127.0.0.1:${webPort}`]);
      const ok = await runIn(sandbox, `curl -sS -m 5 --proxy "$ALL_PROXY" http://127.0.0.1:${webPort}/`);
      expect(ok.output).toContain('hello-over-socks');
      const denied = await runIn(sandbox, `curl -sS -m 5 --proxy "$ALL_PROXY" http://127.0.0.1:${port}/`);
      expect(denied.exitCode).not.toBe(0);
      expect(denied.violation).toContain(
        `blocked by sandbox: network access to 127.0.0.1:${port} is not in the allowed domains`,
      );
    });

    it('without an allowed domain there is no proxy at all: no ALL_PROXY, no way out', async () => {
      const sandbox = await sandboxWith([]);
      const r = await runIn(
        sandbox,
        `echo "proxy=[$ALL_PROXY]"; ${PYTHON} -c "import socket; socket.create_connection(('127.0.0.1', ${port}), timeout=3)"`,
      );
      expect(r.output).toContain('proxy=[]');
      expect(r.exitCode).not.toBe(0);
      expect(r.output).not.toContain('echo:');
    });
  },
);
