/** A run's MCP servers: started before its first model turn, in the sandbox of its project, stopped with it. */
import type { McpServerRunStatus } from '../../shared/mcp-contract';
import type { AgentRunParams, WorkerParams } from '../../shared/worker-protocol';
import { defaultSandboxConfig } from '../command-confinement';
import type { ToolRegistry } from '../tools/types';
import { Registry } from '../tools/registry';
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
  signal?: AbortSignal,
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
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => (stopping ??= servers.stop().finally(() => sandboxes.dispose()));
  // A cancel while servers start does not wait for them (up to the connect timeout): they are stopped instead.
  const cancelled = new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.race([servers.start(), cancelled]);
  if (signal?.aborted) await stop();
  return { servers, registry: withMcpTools(base, servers), stop };
}

/** `mcp.test`: one server started as a run starts it, its tools listed, then stopped. */
export async function testMcpServer(params: WorkerParams<'mcp.test'>): Promise<McpServerRunStatus> {
  const mcp = await startRunMcp(
    {
      mcpServers: [params.server],
      projectRoot: params.projectRoot,
      additionalDirectories: params.additionalDirectories,
      sandbox: params.sandbox,
    },
    new Registry([], 0),
  );
  try {
    return mcp.servers.status()[0]!;
  } finally {
    await mcp.stop();
  }
}
