import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrustStore } from '../../../src/main/core/trust/trust-store';
import { makeFixture, runCliIn, type Fixture } from '../permission/fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const cli = (args: string[]) => runCliIn(fx, args);

interface Listed {
  trusted: boolean;
  servers: { name: string; source: string; active: boolean; inactiveReason: string | null; transport: string }[];
  problems: string[];
}
const list = async (): Promise<Listed> => JSON.parse((await cli(['mcp', 'list', '--json'])).out[0]!) as Listed;
const status = async (name: string) => (await list()).servers.find((s) => s.name === name);

describe('gatehouse mcp: which servers load', () => {
  beforeEach(() => {
    fx.write(path.join(fx.configDir, 'settings.yaml'), 'mcpServers:\n  mine: { command: node, args: [mine.js] }\n');
    fx.write(
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          proj: { command: 'node', args: ['server.js'] },
          mine: { command: 'node', args: ['evil.js'] },
          broken: { type: 'http', url: 'ftp://x' },
        },
      }),
    );
  });

  it("the person's servers load; a project's only when trusted with MCP enabled, and after approval", async () => {
    fx.trust.trusted = false; // the CLI reads the real trust store: nothing stored yet means not trusted
    expect(await status('mine')).toMatchObject({ source: 'user', active: true, transport: 'stdio' });
    expect(await status('proj')).toMatchObject({ active: false, inactiveReason: 'this project is not trusted' });
    expect((await cli(['mcp', 'approve', 'proj'])).code).toBe(1);
    const store = new TrustStore({ configDir: fx.configDir, env: fx.env });
    await store.set(fx.project, 'directory', { rules: true, hooks: true, instructions: true, mcp: false });
    expect((await status('proj'))?.inactiveReason).toContain('does not enable its MCP servers');
    await store.setExtensions(fx.project, { mcp: true });
    expect((await status('proj'))?.inactiveReason).toContain('not approved yet');
    const approved = await cli(['mcp', 'approve', 'proj']);
    expect(approved.out.join()).toContain('node server.js');
    expect(await status('proj')).toMatchObject({ active: true });
    // A changed entry needs a new approval.
    fx.write('.mcp.json', JSON.stringify({ mcpServers: { proj: { command: 'node', args: ['other.js'] } } }));
    expect((await status('proj'))?.inactiveReason).toContain('not approved yet');
    fx.write('.mcp.json', JSON.stringify({ mcpServers: { proj: { command: 'node', args: ['server.js'] } } }));
    expect((await status('proj'))?.active).toBe(true);
    expect((await cli(['mcp', 'revoke', 'proj'])).out.join()).toContain('revoked');
    expect((await status('proj'))?.active).toBe(false);
  });

  it("disable switches any server off in this project (the person's own too), enable back on; other projects keep it", async () => {
    expect(await status('mine')).toMatchObject({ active: true });
    const off = await cli(['mcp', 'disable', 'mine']);
    expect(off.code).toBe(0);
    expect(off.out.join()).toContain('switched off');
    expect(await status('mine')).toMatchObject({
      active: false,
      inactiveReason: expect.stringContaining('switched off'),
    });
    // Only in this project: the same person's server still loads elsewhere.
    const other = path.join(fx.root, 'other');
    fs.mkdirSync(other);
    const elsewhere = JSON.parse((await cli(['mcp', 'list', '--json', '--project', other])).out[0]!) as Listed;
    expect(elsewhere.servers.find((s) => s.name === 'mine')?.active).toBe(true);
    expect((await cli(['mcp', 'enable', 'mine'])).out.join()).toContain('switched on');
    expect(await status('mine')).toMatchObject({ active: true });
    expect((await cli(['mcp', 'disable', 'nothing-here'])).code).toBe(1);
    // A broken state file switches servers off (fail safe).
    fs.writeFileSync(path.join(fx.configDir, 'mcp-approvals.json'), '{ broken');
    expect((await status('mine'))?.active).toBe(false);
  });

  it("a project cannot replace the person's server of the same name; a malformed entry is listed as a problem", async () => {
    await new TrustStore({ configDir: fx.configDir, env: fx.env }).set(fx.project, 'directory');
    const listed = await list();
    const mines = listed.servers.filter((s) => s.name === 'mine');
    expect(mines).toEqual([
      expect.objectContaining({ source: 'user', active: true }),
      expect.objectContaining({ source: 'mcp.json', active: false, inactiveReason: expect.stringContaining('user') }),
    ]);
    expect(listed.problems.join()).toMatch(/\.mcp\.json: mcpServers\.broken\.url: url must be an http/);
  });

  it('add and remove write the settings file; a bad name or entry is refused', async () => {
    expect((await cli(['mcp', 'add', 'docs', '--url', 'https://mcp.example.com/mcp'])).code).toBe(0);
    expect(fs.readFileSync(path.join(fx.configDir, 'settings.yaml'), 'utf8')).toContain('https://mcp.example.com/mcp');
    expect(await status('docs')).toMatchObject({ source: 'user', transport: 'http', active: true });
    expect((await cli(['mcp', 'add', 'docs', '--url', 'https://other.example'])).code).toBe(1);
    expect((await cli(['mcp', 'add', 'a__b', '--', 'node'])).code).toBe(2);
    expect((await cli(['mcp', 'add', 'x', '--url', 'file:///etc/passwd'])).code).toBe(2);
    expect((await cli(['mcp', 'remove', 'docs'])).code).toBe(0);
    expect(await status('docs')).toBeUndefined();
  });

  it('permissions check judges MCP tool names (corpus style)', async () => {
    const check = (call: unknown, ...extra: string[]) =>
      cli(['permissions', 'check', '--call', JSON.stringify(call), ...extra]).then(
        (r) => JSON.parse(r.out[0]!) as { decision: string; rule: string | null },
      );
    expect(await check({ tool: 'mcp__srv__echo', input: {} }, '--deny', 'mcp__srv')).toMatchObject({
      decision: 'deny',
      rule: 'mcp__srv',
    });
  });
});
