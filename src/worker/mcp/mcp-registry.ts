/**
 * A run's MCP servers and the tool registry the agent loop sees: the built-in tools, then every MCP tool as
 * `mcp__<server>__<tool>`. An MCP call goes through the same loop as any (main's decision, hooks, the plan-mode
 * gate); here it is only run. A tool is `readOnly` only when its server is the person's own and marks it so
 * (what main decided in `readOnlyHints`): plan mode offers those, and no other MCP tool.
 */
import type { ActiveMcpServer, McpServerRunStatus } from '../../shared/mcp-contract';
import type { AgentMode } from '../../shared/permission';
import type { ToolSafety } from '../../shared/tools';
import type { ModelToolDefinition, ToolContext, ToolPreview, ToolRegistry, ToolResult } from '../tools/types';
import { McpConnection, type McpConnectionDeps } from './mcp-connection';
import type { McpToolDef } from './mcp-tool-list';

export class McpServers {
  readonly connections: McpConnection[];

  constructor(servers: readonly ActiveMcpServer[], deps: McpConnectionDeps) {
    this.connections = servers.map((s) => new McpConnection(s, deps));
  }

  /** Connects every server at once; each failure is that server's status. */
  async start(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.start()));
  }

  status(): McpServerRunStatus[] {
    return this.connections.map((c) => c.status());
  }

  async stop(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.stop()));
  }

  tools(): { def: McpToolDef; connection: McpConnection }[] {
    return this.connections.flatMap((connection) => connection.tools.map((def) => ({ def, connection })));
  }
}

export function withMcpTools(base: ToolRegistry, servers: McpServers): ToolRegistry {
  const byName = new Map(servers.tools().map((t) => [t.def.name, t]));
  const safetyOf = (name: string): ToolSafety | null => {
    const t = byName.get(name);
    if (!t) return null;
    return t.connection.server.readOnlyHints && t.def.readOnlyHint ? 'readOnly' : 'exec';
  };
  const definitions = (agentMode: AgentMode): ModelToolDefinition[] =>
    [...byName.values()]
      .filter((t) => agentMode !== 'plan' || safetyOf(t.def.name) === 'readOnly')
      .map((t) => ({
        name: t.def.name,
        description: t.def.description,
        input_schema: structuredClone(t.def.inputSchema),
      }));
  return {
    definitions: (agentMode) => [...base.definitions(agentMode), ...definitions(agentMode)],
    safety: (name) => base.safety(name) ?? safetyOf(name),
    preview: (name, rawInput, ctx): Promise<ToolPreview | undefined> =>
      byName.has(name) ? Promise.resolve(undefined) : base.preview(name, rawInput, ctx),
    async execute(name, rawInput, ctx: ToolContext, gate): Promise<ToolResult> {
      const t = byName.get(name);
      if (!t) return base.execute(name, rawInput, ctx, gate);
      if (gate.agentMode === 'plan' && safetyOf(name) !== 'readOnly')
        return {
          content: `tool_not_allowed: ${name} is not available in plan mode (read-only tools only)`,
          isError: true,
        };
      if (gate.allowList !== undefined && !gate.allowList.includes(name))
        return { content: `tool_not_allowed: ${name} is not in this agent's allowed tools`, isError: true };
      if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput))
        return { content: `invalid_input: ${name}: the arguments must be an object`, isError: true };
      if (ctx.signal.aborted) return { content: `cancelled: ${name} was not run`, isError: true };
      return t.connection.call(t.def.tool, rawInput as Record<string, unknown>, ctx.signal);
    },
  };
}
