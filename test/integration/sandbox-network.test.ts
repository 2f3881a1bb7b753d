import * as http from 'node:http';
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

const skipReason =
  noBwrapReason ?? (socatPath === null ? 'socat is not installed' : curlPath === null ? 'curl is not installed' : null);

describe.skipIf(skipReason !== null)(
  `sandboxed commands: network (real bubblewrap${skipReason ? `; skipped: ${skipReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let server: http.Server;
    let port = 0;
    const hits: string[] = [];
    const { withDomains: sandboxWith, disposeAll } = domainSandboxes(() => world);

    beforeAll(async () => {
      world = makeWorld();
      server = http.createServer((req, res) => {
        hits.push(`${req.method} ${req.url}`);
        res.end('hello-from-loopback\n');
      });
      port = await listenOnLoopback(server);
    });
    afterEach(async () => {
      await disposeAll();
      hits.length = 0;
    });
    afterAll(async () => {
      await closeServer(server);
      world?.remove();
    });

    it('refuses a connection to a loopback server when no domain is allowed', async () => {
      const sandbox = await sandboxWith([]);
      const r = await runIn(sandbox, `curl -sS -m 5 http://127.0.0.1:${port}/`);
      expect(r.exitCode).not.toBe(0);
      expect(r.output).not.toContain('hello-from-loopback');
      expect(hits).toEqual([]);
      expect(r.violation).toContain('blocked by sandbox: network access is disabled');
      const dns = await runIn(sandbox, 'curl -sS -m 5 https://example.com/');
      expect(dns.exitCode).not.toBe(0);
      expect(dns.violation).toContain('blocked by sandbox: network access is disabled');
    });

    it('reaches an allowed host through the proxy and refuses one that is not allowed', async () => {
      const sandbox = await sandboxWith([`127.0.0.1:${port}`]);
      const ok = await runIn(sandbox, `curl -sS -m 5 http://127.0.0.1:${port}/plain`);
      expect(ok.output).toContain('hello-from-loopback');
      expect(ok.exitCode).toBe(0);
      expect(ok.violation).toBeNull();
      // HTTPS-style CONNECT tunnel to the same allowed host
      const tunnel = await runIn(sandbox, `curl -sS -m 5 -p http://127.0.0.1:${port}/tunnel`);
      expect(tunnel.output).toContain('hello-from-loopback');
      expect(hits).toEqual(['GET /plain', 'GET /tunnel']);

      const denied = await runIn(sandbox, `curl -sS -m 5 http://localhost:${port}/denied`);
      expect(denied.output).not.toContain('hello-from-loopback');
      expect(denied.violation).toContain(
        `blocked by sandbox: network access to localhost:${port} is not in the allowed domains`,
      );
      const deniedTunnel = await runIn(sandbox, 'curl -sS -m 5 https://example.com/');
      expect(deniedTunnel.exitCode).not.toBe(0);
      expect(deniedTunnel.violation).toContain('network access to example.com:443 is not in the allowed domains');
      // another port of the allowed host is another destination
      const otherPort = await runIn(sandbox, `curl -sS -m 5 http://127.0.0.1:${port === 65535 ? 1 : port + 1}/`);
      expect(otherPort.violation).toContain('is not in the allowed domains');
      expect(hits).toEqual(['GET /plain', 'GET /tunnel']);
    });

    it('cannot bypass the proxy by connecting directly', async () => {
      const sandbox = await sandboxWith([`127.0.0.1:${port}`]);
      const r = await runIn(
        sandbox,
        `curl -sS -m 5 --noproxy '*' http://127.0.0.1:${port}/direct; exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`,
      );
      expect(r.output).not.toContain('hello-from-loopback');
      expect(r.output).not.toContain('connected');
      expect(hits).toEqual([]);
    });

    it('refuses an allowed name that resolves to loopback (DNS cannot aim it at the host)', async () => {
      const sandbox = await sandboxWith(['localhost']);
      const r = await runIn(sandbox, `curl -sS -m 5 http://localhost:${port}/rebind`);
      expect(r.output).not.toContain('hello-from-loopback');
      expect(hits).toEqual([]);
      expect(r.violation).toContain('localhost resolves to an internal address');
    });
  },
);
