import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActiveMcpServer } from '../../src/shared/mcp-contract';
import type { SandboxRunConfig } from '../../src/shared/worker-protocol';
import { startRunMcp, type RunMcp } from '../../src/worker/mcp/run-mcp';
import { createToolRegistry } from '../../src/worker/tools/tool-set';
import type { ToolContext } from '../../src/worker/tools/types';
import { EVERYTHING_SERVER, startHttpServer, stdioEntry } from '../support/mcp-servers';
import { makeWorld, noBwrapReason, type SandboxWorld } from '../unit/sandbox/support';

const base = createToolRegistry({ ripgrepPath: null });

/** Every process whose command line holds `tag`. */
async function processesWith(tag: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await fs.promises.readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await fs.promises.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(tag)) pids.push(Number(entry));
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(noBwrapReason !== null)(
  `MCP client: real servers built with the SDK, stdio in bubblewrap and Streamable HTTP${noBwrapReason ? ` (skipped: ${noBwrapReason})` : ''}`,
  () => {
    let world: SandboxWorld;
    let sandbox: SandboxRunConfig;
    let ctx: ToolContext;
    const run = (name: string, input: unknown, agentMode: 'do' | 'plan' = 'do') =>
      mcp.registry.execute(name, input, ctx, { agentMode });
    let mcp: RunMcp;
    let denied: string;

    beforeAll(async () => {
      world = makeWorld();
      denied = path.join(world.project, 'private', 'secret.txt');
      fs.mkdirSync(path.dirname(denied), { recursive: true });
      fs.writeFileSync(denied, 'READ-DENIED-CONTENT\n');
      sandbox = {
        enabled: true,
        allowedDomains: [],
        envAllowList: [],
        userConfigDir: world.userConfigDir,
        home: world.home,
        readDeny: { hidden: [{ path: denied, rule: 'Read(./private/**)' }] },
      };
      ctx = { projectRoot: world.project, additionalDirectories: [], signal: new AbortController().signal };
      process.env.GH_TEST_VISIBLE = 'plain';
      process.env.GH_TEST_TOKEN = 'passed-on';
      const servers: ActiveMcpServer[] = [
        {
          name: 'tst',
          source: 'user',
          entry: stdioEntry({ envAllowList: ['GH_TEST_TOKEN'], env: { SET_BY_ENTRY: 'yes' } }),
          readOnlyHints: true,
        },
        { name: 'proj', source: 'project', entry: stdioEntry(), readOnlyHints: false },
        { name: 'broken', source: 'user', entry: { command: '/nonexistent/mcp-server' }, readOnlyHints: true },
      ];
      mcp = await startRunMcp(
        { mcpServers: servers, projectRoot: world.project, additionalDirectories: [], sandbox },
        base,
        { backoffMs: 50 },
      );
    }, 60_000);

    afterAll(async () => {
      await mcp?.stop();
      delete process.env.GH_TEST_VISIBLE;
      delete process.env.GH_TEST_TOKEN;
      world?.remove();
    });

    it('lists the tools as mcp__<server>__<tool>, leaving out a non-object schema and an invalid name with the reason', () => {
      const [tst, , broken] = mcp.servers.status();
      expect(tst!.state).toBe('ready');
      expect(tst!.tools.map((t) => t.name)).toEqual(
        ['write_marker', 'crash', 'peek', 'huge', 'read_text', 'reach', 'env_names'].map((t) => `mcp__tst__${t}`),
      );
      expect(tst!.skipped.map((s) => s.tool)).toEqual(['not_object', 'bad name!']);
      expect(tst!.skipped[0]!.reason).toContain('not an object schema');
      expect(tst!.errors.join('\n')).toContain('"bad name!"');
      expect(broken!.state).toBe('failed');
      expect(broken!.errors[0]).toMatch(/could not start/);
      const names = mcp.registry.definitions('do').map((d) => d.name);
      expect(names).toContain('read_file');
      expect(names).toContain('mcp__proj__write_marker');
      const schema = mcp.registry.definitions('do').find((d) => d.name === 'mcp__tst__write_marker')!.input_schema;
      expect(schema).toMatchObject({ type: 'object', required: ['path'] });
    });

    it('offers in plan mode only the read-only tools of a server of your own (a project server hint never counts)', async () => {
      const plan = mcp.registry.definitions('plan').map((d) => d.name);
      expect(plan).toContain('mcp__tst__peek');
      expect(plan).not.toContain('mcp__proj__peek');
      expect(plan).not.toContain('mcp__tst__write_marker');
      expect(mcp.registry.safety('mcp__tst__peek')).toBe('readOnly');
      expect(mcp.registry.safety('mcp__proj__peek')).toBe('exec');
      const refused = await run('mcp__proj__peek', {}, 'plan');
      expect(refused.isError).toBe(true);
      expect(refused.content).toContain('tool_not_allowed');
    });

    it('runs a tool: the server writes in the project', async () => {
      const marker = path.join(world.project, 'marker.txt');
      const result = await run('mcp__tst__write_marker', { path: marker });
      expect(result).toEqual({ content: `wrote ${marker}`, isError: false });
      expect(fs.readFileSync(marker, 'utf8')).toBe('marker\n');
    });

    it('caps a huge result, head and tail kept, with a marker saying how much was cut', async () => {
      const result = await run('mcp__tst__huge', {});
      expect(result.content.length).toBeLessThanOrEqual(30_000);
      expect(result.content.startsWith('HEAD-')).toBe(true);
      expect(result.content.endsWith('-TAIL')).toBe(true);
      expect(result.content).toMatch(/\[\.\.\. [\d,]+ characters omitted \.\.\.\]/);
    });

    it('refuses oversized arguments before they reach the server', async () => {
      const result = await run('mcp__tst__write_marker', { path: 'x'.repeat(300_000) });
      expect(result.isError).toBe(true);
      expect(result.content).toContain('at most 200,000');
    });

    it('gives the server only basic variables, the ones its entry names, and its own', async () => {
      const names = (await run('mcp__tst__env_names', {})).content.split('\n');
      expect(names).toContain('PATH');
      expect(names).toContain('GH_TEST_TOKEN');
      expect(names).toContain('SET_BY_ENTRY');
      expect(names).not.toContain('GH_TEST_VISIBLE');
    });

    it('cannot read a Read-denied file, nor reach a host it did not declare', async () => {
      const read = await run('mcp__tst__read_text', { path: denied });
      expect(read.content).not.toContain('READ-DENIED-CONTENT');
      const listener = http.createServer((_req, res) => res.end('host'));
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      try {
        const port = (listener.address() as AddressInfo).port;
        // The host is reachable from here: only the sandbox stands between the server and it.
        const reach = await run('mcp__tst__reach', { host: '127.0.0.1', port });
        expect(reach.content).toMatch(/^blocked/);
      } finally {
        listener.close();
      }
    });

    it('with allowedDomains, the server reaches the network only through the proxy, which refuses an undeclared host', async () => {
      const declared = await startRunMcp(
        {
          mcpServers: [
            {
              name: 'net',
              source: 'user',
              entry: stdioEntry({ allowedDomains: ['allowed.example'] }),
              readOnlyHints: true,
            },
          ],
          projectRoot: world.project,
          additionalDirectories: [],
          sandbox,
        },
        base,
      );
      const listener = http.createServer((_req, res) => res.end('host'));
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      try {
        expect(declared.servers.status()[0]!.state).toBe('ready');
        const port = (listener.address() as AddressInfo).port;
        const reach = await declared.registry.execute('mcp__net__reach', { host: '127.0.0.1', port }, ctx, {
          agentMode: 'do',
        });
        expect(reach.content).toMatch(/^blocked: proxy answered 403/);
      } finally {
        listener.close();
        await declared.stop();
      }
    });

    it('a crashed server: the call fails with a clear error, and the server is restarted', async () => {
      const pid = mcp.servers.connections[0]!.pid!;
      const crash = await run('mcp__tst__crash', {});
      expect(crash.isError).toBe(true);
      expect(crash.content).toBe('MCP server tst exited (code 3); restarting');
      const after = await run('mcp__tst__peek', {});
      expect(after).toEqual({ content: 'peeked', isError: false });
      expect(mcp.servers.connections[0]!.pid).not.toBe(pid);
      expect(mcp.servers.status()[0]!.errors.join('\n')).toContain('exited (code 3)');
    });

    it('runs the official server-everything from npm: its echo, and an image result described in one line', async () => {
      const pkg = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json');
      const everything = await startRunMcp(
        {
          mcpServers: [
            {
              name: 'everything',
              source: 'user',
              entry: {
                command: process.execPath,
                args: [EVERYTHING_SERVER ?? path.join(path.dirname(pkg), 'dist', 'index.js'), 'stdio'],
              },
              readOnlyHints: true,
            },
          ],
          projectRoot: world.project,
          additionalDirectories: [],
          sandbox,
        },
        base,
      );
      try {
        const status = everything.servers.status()[0]!;
        expect(status.state, status.errors.join('\n')).toBe('ready');
        expect(status.tools).toContainEqual(
          expect.objectContaining({ name: 'mcp__everything__echo', readOnlyHint: true }),
        );
        const exec = (name: string, input: unknown) =>
          everything.registry.execute(name, input, ctx, { agentMode: 'do' });
        expect(await exec('mcp__everything__echo', { message: 'hi' })).toEqual({ content: 'Echo: hi', isError: false });
        const image = await exec('mcp__everything__get-tiny-image', {});
        expect(image.content).toMatch(/\[image image\/png, [\d,]+ bytes\]/);
      } finally {
        await everything.stop();
      }
    });

    it('a cancel while a server is still starting stops it at once (no wait for the connect timeout, no process left)', async () => {
      const tag = `gh-mcp-hang-${process.pid}-${Date.now()}`;
      const started = path.join(world.project, `${tag}.started`);
      const abort = new AbortController();
      const watcher = fs.watch(world.project);
      const appeared = new Promise<void>((resolve) =>
        watcher.on('change', () => {
          if (fs.existsSync(started)) resolve();
        }),
      );
      const starting = startRunMcp(
        {
          mcpServers: [
            {
              name: 'hangs',
              source: 'user',
              // Never answers initialize.
              entry: { command: 'sh', args: ['-c', `touch ${started}; exec sleep 600`, tag] },
              readOnlyHints: true,
            },
          ],
          projectRoot: world.project,
          additionalDirectories: [],
          sandbox,
        },
        base,
        { connectMs: 600_000 },
        abort.signal,
      );
      await appeared;
      watcher.close();
      abort.abort();
      const mcp2 = await starting;
      expect(mcp2.servers.status()[0]!.state).toBe('stopped');
      expect(await processesWith(tag)).toEqual([]);
    });

    it('leaves no server process behind once stopped', async () => {
      const extra = await startRunMcp(
        {
          mcpServers: [{ name: 'once', source: 'user', entry: stdioEntry(), readOnlyHints: true }],
          projectRoot: world.project,
          additionalDirectories: [],
          sandbox,
        },
        base,
      );
      const pid = extra.servers.connections[0]!.pid!;
      expect(alive(pid)).toBe(true);
      await extra.stop();
      expect(alive(pid)).toBe(false);
    });
  },
);

describe('MCP client over Streamable HTTP (a real server process)', () => {
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  beforeAll(async () => {
    server = await startHttpServer();
  });
  afterAll(() => server?.stop());

  it('lists and calls tools at the entry URL', async () => {
    const mcp = await startRunMcp(
      {
        mcpServers: [{ name: 'web', source: 'user', entry: server.entry, readOnlyHints: true }],
        projectRoot: process.cwd(),
        additionalDirectories: [],
      },
      base,
    );
    try {
      expect(mcp.servers.status()[0]!.state).toBe('ready');
      const ctx = { projectRoot: process.cwd(), additionalDirectories: [], signal: new AbortController().signal };
      const result = await mcp.registry.execute('mcp__web__peek', {}, ctx, { agentMode: 'do' });
      expect(result).toEqual({ content: 'peeked', isError: false });
    } finally {
      await mcp.stop();
    }
  });

  it('does not follow a redirect to another origin', async () => {
    const redirector = http.createServer((_req, res) => {
      res.writeHead(307, { location: server.url });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const url = `http://localhost:${(redirector.address() as AddressInfo).port}/mcp`;
    const mcp = await startRunMcp(
      {
        mcpServers: [{ name: 'moved', source: 'user', entry: { type: 'http', url }, readOnlyHints: true }],
        projectRoot: process.cwd(),
        additionalDirectories: [],
      },
      base,
    );
    try {
      const status = mcp.servers.status()[0]!;
      expect(status.state).toBe('failed');
      expect(status.errors.join('\n')).toMatch(/redirect/);
    } finally {
      await mcp.stop();
      redirector.close();
    }
  });
});
