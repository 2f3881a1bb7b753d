import { describe, expect, it } from 'vitest';
import { describeEntry, parseMcpServers } from '../../../src/main/core/settings/mcp-config';
import { parseSettingsText } from '../../../src/main/core/settings/parse-settings';
import { mcpToolName, parseMcpToolName, serverNameProblem } from '../../../src/shared/mcp-contract';
import { parseRule } from '../../../src/main/core/rule-syntax/parse-rule';

describe('MCP server names and tool names', () => {
  it('a server name cannot hold "__" or start/end with "_" (mcp__<server>__<tool> must split one way)', () => {
    for (const ok of ['github', 'my-server', 'a_b', 'A1']) expect(serverNameProblem(ok), ok).toBeNull();
    expect(serverNameProblem('a__b')).toContain('must not contain "__"');
    for (const bad of ['', '_a', 'a_', 'a b', 'a.b', 'ä', 'x'.repeat(65)])
      expect(serverNameProblem(bad), bad).not.toBeNull();
  });
  it('tool names split back into server and tool', () => {
    expect(parseMcpToolName(mcpToolName('srv', 'get__thing'))).toEqual({ server: 'srv', tool: 'get__thing' });
    expect(parseMcpToolName('read_file')).toBeNull();
    expect(parseMcpToolName('mcp___srv__x')).toBeNull();
  });
  it('rules: mcp__server, mcp__server__*, mcp__server__tool; no specifier, no bad server name', () => {
    expect(parseRule('mcp__srv')).toMatchObject({
      ok: true,
      rule: { kind: 'mcp', mcp: { server: 'srv', tool: null } },
    });
    expect(parseRule('mcp__srv__*')).toMatchObject({ ok: true, rule: { mcp: { server: 'srv', tool: null } } });
    expect(parseRule('mcp__srv__echo')).toMatchObject({ ok: true, rule: { mcp: { server: 'srv', tool: 'echo' } } });
    expect(parseRule('mcp__srv__echo(x)')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no specifier'),
    });
    expect(parseRule('mcp___srv')).toMatchObject({ ok: false });
    expect(parseRule('mcp__srv__')).toMatchObject({ ok: false, reason: expect.stringContaining('missing') });
    expect(parseRule('mcp__srv__ec ho')).toMatchObject({ ok: false });
  });
});

describe('mcpServers entries', () => {
  it('parses stdio and http entries in Claude Code shape, with Gatehouse fields', () => {
    const { servers, problems } = parseMcpServers({
      local: {
        command: 'node',
        args: ['server.js'],
        env: { MODE: 'ro' },
        envAllowList: ['TOKEN'],
        allowedDomains: ['api.example.com'],
      },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'core' } },
    });
    expect(problems).toEqual([]);
    expect(servers.map((s) => s.name)).toEqual(['local', 'remote']);
    expect(describeEntry(servers[0]!.entry)).toBe('node server.js');
    expect(describeEntry(servers[1]!.entry)).toBe('https://mcp.example.com/mcp');
  });
  it('a malformed entry is a problem with its key; the other servers still parse', () => {
    const { servers, problems } = parseMcpServers({
      good: { command: 'node' },
      nocmd: { args: ['x'] },
      sse: { type: 'sse', url: 'https://x.example/sse' },
      urlonly: { url: 'https://x.example/mcp' },
      badurl: { type: 'http', url: 'file:///etc/passwd' },
      typo: { command: 'node', allowedDomain: ['x.com'] },
      bad__name: { command: 'node' },
      envbad: { command: 'node', envAllowList: ['NOT-A-NAME'] },
      list: ['node'],
    });
    expect(servers.map((s) => s.name)).toEqual(['good']);
    const byKey = Object.fromEntries(problems.map((p) => [p.key, p.reason]));
    expect(Object.keys(byKey).sort()).toEqual(
      [
        'mcpServers.nocmd.command',
        'mcpServers.sse.type',
        'mcpServers.urlonly.type',
        'mcpServers.badurl.url',
        'mcpServers.typo.allowedDomain',
        'mcpServers.bad__name',
        'mcpServers.envbad.envAllowList.0',
        'mcpServers.list',
      ].sort(),
    );
    expect(byKey['mcpServers.sse.type']).toContain('not supported');
    expect(byKey['mcpServers.typo.allowedDomain']).toContain('unknown field');
    expect(byKey['mcpServers.badurl.url']).toContain('http:// or https://');
  });
  it('in a settings file: problems carry the file and line, and the rest of the file applies', () => {
    const text = [
      'permissions:',
      '  deny: ["Bash(rm:*)"]',
      'mcpServers:',
      '  ok: { command: node }',
      '  broken:',
      '    type: http',
      '    url: 42',
    ].join('\n');
    const r = parseSettingsText('/p/.gatehouse/settings.yaml', text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.deny).toEqual(['Bash(rm:*)']);
    expect(r.settings.mcpServers?.map((s) => s.name)).toEqual(['ok']);
    expect(r.keyProblems).toEqual([
      expect.objectContaining({
        file: '/p/.gatehouse/settings.yaml',
        key: 'mcpServers.broken.url',
        line: 7,
        effect: expect.stringContaining('does not load'),
      }),
    ]);
  });
  it('mcpServers that is not a map is reported, and the file still applies', () => {
    const r = parseSettingsText('/p/s.yaml', 'mcpServers: [a]\npermissions:\n  allow: [Bash(ls)]\n');
    expect(r.ok && r.settings.allow).toEqual(['Bash(ls)']);
    expect(r.ok && r.keyProblems[0]?.key).toBe('mcpServers');
  });
});
