/**
 * `gatehouse mcp test NAME`: starts one configured server exactly as a run would (the worker's client, the project's
 * sandbox settings and Read-deny mask), lists its tools with the category the engine gives each (`read` only for a
 * `readOnlyHint` on a server of your own; else `exec`), and stops it. A server that does not load here (untrusted
 * project, not approved, shadowed) is not started: the reason is the error.
 */
import { GatehouseError } from '../../../shared/errors';
import type { McpServerRunStatus } from '../../../shared/mcp-contract';
import type { ToolCategory } from '../../../shared/tools';
import { createPermissionEngine } from '../permission/create-engine';
import { trustAnswer, type TrustOracle } from '../permission/trust-oracle';
import { checkProjectSandbox } from '../sandbox/check-sandbox';
import { writableDirectories } from '../sandbox/writable-directories';
import { SettingsStore } from '../settings/settings-store';
import type { WorkerHost } from '../worker-host-types';
import { McpApprovals } from './mcp-approvals';
import { readOnlyTools } from './mcp-run';
import { activeServers, resolveMcpServers, type McpServerStatus } from './mcp-servers';

export interface McpTestResult {
  server: Pick<McpServerStatus, 'name' | 'source' | 'file' | 'transport' | 'shown'>;
  status: McpServerRunStatus;
  tools: { name: string; tool: string; category: ToolCategory }[];
}

export async function testMcpServer(opts: {
  name: string;
  projectRoot: string;
  configDir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  trust: TrustOracle;
  host: Pick<WorkerHost, 'request'>;
}): Promise<McpTestResult> {
  const { projectRoot, configDir, env } = opts;
  const snapshot = await new SettingsStore({ projectRoot, configDir, home: opts.home, env }).snapshot();
  const trust = await trustAnswer(opts.trust, projectRoot);
  const resolved = await resolveMcpServers({ projectRoot, snapshot, trust, approvals: new McpApprovals(configDir) });
  const found =
    resolved.servers.find((s) => s.name === opts.name && s.active) ??
    resolved.servers.find((s) => s.name === opts.name);
  if (!found) {
    const problem = resolved.problems.find((p) => p.key.split('.')[1] === opts.name);
    throw new GatehouseError(
      'NOT_FOUND',
      problem
        ? `MCP server "${opts.name}" does not load: ${problem.file}: ${problem.key}: ${problem.reason}`
        : `no MCP server "${opts.name}" is configured for ${projectRoot}`,
    );
  }
  if (!found.active)
    throw new GatehouseError('BAD_REQUEST', `MCP server "${opts.name}" does not load here: ${found.why}`);
  const [server] = activeServers([found]);
  const engine = await createPermissionEngine({ projectRoot, configDir, env, trust: opts.trust, audit: null });
  const additionalDirectories = await writableDirectories(engine);
  const { config } = await checkProjectSandbox({
    configDir,
    env,
    projectRoot,
    projectTrusted: trust.trusted && trust.extensions.rules,
    engine,
    additionalDirectories,
    host: opts.host,
  });
  const status = await opts.host.request(
    'mcp.test',
    { server: server!, projectRoot, additionalDirectories, sandbox: config },
    { timeoutMs: 120_000 },
  );
  const reads = new Set(readOnlyTools([server!], [status]));
  return {
    server: {
      name: found.name,
      source: found.source,
      file: found.file,
      transport: found.transport,
      shown: found.shown,
    },
    status,
    tools: status.tools.map((t) => ({ name: t.name, tool: t.tool, category: reads.has(t.name) ? 'read' : 'exec' })),
  };
}
