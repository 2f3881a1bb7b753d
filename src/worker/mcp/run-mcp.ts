/** A run's MCP servers: started before its first model turn, in the sandbox of its project, stopped with it. */
import type { AgentRunParams } from '../../shared/worker-protocol';
import { defaultSandboxConfig } from '../command-confinement';
import type { ToolRegistry } from '../tools/types';
import { DEFAULT_TIMINGS, type McpTimings } from './mcp-connection';
import { McpServers, withMcpTools } from './mcp-registry';
import { McpSandboxes } from './mcp-spawn';

export interface RunMcp {
  servers: McpServers;
  registry: ToolRegistry;
  stop(): Promise<void>;
}

export async function startRunMcp(
  params: Pick<AgentRunParams, 'mcpServers' | 'projectRoot' | 'additionalDirectories' | 'sandbox'>,
  base: ToolRegistry,
  timings: Partial<McpTimings> = {},
): Promise<RunMcp> {
  const sandboxes = new McpSandboxes(
    params.projectRoot,
    params.additionalDirectories,
    params.sandbox ?? defaultSandboxConfig(),
  );
  const servers = new McpServers(params.mcpServers ?? [], {
    spawnSpec: (server) => sandboxes.spawnSpec(server),
    timings: { ...DEFAULT_TIMINGS, ...timings },
  });
  await servers.start();
  let stopping: Promise<void> | null = null;
  return {
    servers,
    registry: withMcpTools(base, servers),
    stop: () => (stopping ??= servers.stop().finally(() => sandboxes.dispose())),
  };
}
