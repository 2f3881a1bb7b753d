import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stdioEntry } from '../support/mcp-servers';
import { runGatehouse, withTrustedProject, type Sandbox } from './agent-helpers';
import { noBwrapReason } from '../unit/sandbox/support';

// `gatehouse mcp test NAME`: the real CLI, the SDK-built test server started by the worker inside bubblewrap.

let box: Sandbox;
withTrustedProject('gh-mcp-test-', (_f, b) => {
  box = b;
});

function mcp(...args: string[]) {
  return runGatehouse(['mcp', ...args, '--project', box.project], box.env, box.home);
}

describe.skipIf(noBwrapReason !== null)(
  `gatehouse mcp test${noBwrapReason ? ` (skipped: ${noBwrapReason})` : ''}`,
  // Each test runs several real CLI processes (and sandboxed servers): minutes on a loaded machine, seconds alone.
  { timeout: 120_000 },
  () => {
    it('connects, lists the tools with the category the engine gives them, and what it left out', async () => {
      fs.writeFileSync(
        path.join(box.configDir, 'settings.yaml'),
        JSON.stringify({ mcpServers: { tst: stdioEntry() } }),
      );
      const r = await mcp('test', 'tst', '--json');
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as {
        ok: boolean;
        tools: { name: string; category: string }[];
        status: { skipped: { tool: string }[] };
      };
      expect(out.ok).toBe(true);
      expect(out.tools).toContainEqual({ name: 'mcp__tst__peek', tool: 'peek', category: 'read' });
      expect(out.tools).toContainEqual({ name: 'mcp__tst__write_marker', tool: 'write_marker', category: 'exec' });
      expect(out.status.skipped.map((s) => s.tool)).toEqual(['not_object', 'bad name!']);
      const text = await mcp('test', 'tst');
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/read\s+mcp__tst__peek/);
      expect(text.stdout).toContain('left out: tool "not_object"');
    });

    it('a project server: refused until approved; then its readOnlyHint tool is still exec', async () => {
      fs.writeFileSync(path.join(box.project, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdioEntry() } }));
      let r = await mcp('test', 'proj');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('not approved yet');
      expect((await mcp('approve', 'proj')).code).toBe(0);
      r = await mcp('test', 'proj', '--json');
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { tools: { name: string; category: string }[] };
      expect(out.tools).toContainEqual({ name: 'mcp__proj__peek', tool: 'peek', category: 'exec' });
    });

    it('a server that cannot start, and an unknown name: a clear error and exit 1', async () => {
      fs.writeFileSync(
        path.join(box.configDir, 'settings.yaml'),
        JSON.stringify({ mcpServers: { gone: { command: '/nonexistent/server' } } }),
      );
      let r = await mcp('test', 'gone');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('"gone" did not start');
      r = await mcp('test', 'nosuch');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('no MCP server "nosuch"');
    });
  },
);
