/**
 * main's side of a run's MCP servers: which servers the worker connects to (the active ones: the person's own, and
 * a trusted project's that the person approved), and, from the worker's report, which tools count as read-only
 * for the engine: a tool the server marks `readOnlyHint`, only on a server main itself sent as the person's own.
 */
import type { ActiveMcpServer, McpServerRunStatus } from '../../../shared/mcp-contract';
import { mcpToolName } from '../../../shared/mcp-contract';
import type { SettingsSnapshot } from '../settings/settings-store';
import type { TrustAnswer } from '../permission/trust-oracle';
import { McpApprovals } from './mcp-approvals';
import { activeServers, resolveMcpServers } from './mcp-servers';

export async function runMcpServers(opts: {
  configDir: string;
  projectRoot: string;
  snapshot: SettingsSnapshot;
  trust: TrustAnswer;
}): Promise<ActiveMcpServer[]> {
  const resolved = await resolveMcpServers({
    projectRoot: opts.projectRoot,
    snapshot: opts.snapshot,
    trust: opts.trust,
    approvals: new McpApprovals(opts.configDir),
  });
  return activeServers(resolved.servers);
}

/** The `mcp__server__tool` names the engine judges as reads (never a project server's, whatever the worker says). */
export function readOnlyTools(sent: readonly ActiveMcpServer[], report: readonly McpServerRunStatus[]): string[] {
  const personal = new Set(sent.filter((s) => s.readOnlyHints).map((s) => s.name));
  const names: string[] = [];
  for (const server of report) {
    if (!personal.has(server.name)) continue;
    for (const t of server.tools)
      if (t.readOnlyHint && t.server === server.name && t.name === mcpToolName(t.server, t.tool)) names.push(t.name);
  }
  return names;
}
