import type { ActiveMcpServer, McpServerRunStatus } from '../../../shared/mcp-contract';
import type { McpServersReport } from '../../../shared/worker-protocol';
import { readOnlyTools } from '../../core/mcp/mcp-run';

/**
 * The MCP servers a session sent with its last run and how the worker found them (state, tools, errors, and when).
 * The tools a report shows as read-only are the engine's `read` tools until the next run; a report for another run
 * than the last one sent is ignored.
 */
export class McpRunReport {
  private sent: { runId: string; servers: ActiveMcpServer[] } | null = null;
  private found: McpServerRunStatus[] = [];
  private foundAt: string | null = null;

  constructor(private readonly setReadTools: (names: Iterable<string>) => void) {}

  /** A run starts with these servers: until the worker reports them, none of their tools counts as a read. */
  sending(runId: string, servers: ActiveMcpServer[]): void {
    this.sent = { runId, servers };
    this.setReadTools([]);
  }

  /** The worker's report of the run's servers. */
  report(report: McpServersReport): void {
    if (this.sent?.runId !== report.runId) return;
    this.found = report.servers;
    this.foundAt = new Date().toISOString();
    this.setReadTools(readOnlyTools(this.sent.servers, report.servers));
  }

  /** The servers of the last run as the worker found them. */
  get servers(): McpServerRunStatus[] {
    return this.found;
  }

  /** When the last run reported its servers (ISO time), or null. */
  get at(): string | null {
    return this.foundAt;
  }
}
