import { describe, expect, it } from 'vitest';
import type { ActiveMcpServer } from '../../../src/shared/mcp-contract';
import { serverEnv } from '../../../src/worker/mcp/mcp-spawn';

// What a stdio MCP server starts with, from the (sandbox-wrapped) environment the worker gives its commands.
const WRAPPED = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  LC_ALL: 'C.UTF-8',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/corporate-roots.pem',
  HTTPS_PROXY: 'http://127.0.0.1:41234',
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  GITHUB_TOKEN: 'ghp_secret',
  SOME_TOOL_SETTING: 'x',
};

function server(entry: ActiveMcpServer['entry']): ActiveMcpServer {
  return { name: 'srv', source: 'user', entry, readOnlyHints: false };
}

describe("a stdio MCP server's environment", () => {
  it('keeps what a program needs to run, extra root certificates and the proxy included, and nothing else', () => {
    expect(serverEnv(WRAPPED, server({ command: 'srv' }))).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/u',
      LC_ALL: 'C.UTF-8',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/corporate-roots.pem',
      HTTPS_PROXY: 'http://127.0.0.1:41234',
    });
  });

  it('adds the variables its entry names and the values its entry sets', () => {
    const env = serverEnv(
      WRAPPED,
      server({ command: 'srv', envAllowList: ['some_tool_setting'], env: { SERVER_MODE: 'read-only' } }),
    );
    expect(env).toMatchObject({ SOME_TOOL_SETTING: 'x', SERVER_MODE: 'read-only' });
    expect(env).not.toHaveProperty('GITHUB_TOKEN');
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
  });
});
