import { z } from 'zod';
import { McpServerRunStatusSchema, McpServerSourceSchema } from './mcp-contract';

/**
 * The MCP page's channels: the open project's MCP servers (where each comes from, its command line or URL, whether
 * it loads and why not), approving and revoking a project server (the same approvals as `gatehouse mcp approve`),
 * and testing one (started as a run would, its tools listed with their category, then stopped). Spread into
 * `ApiChannels` (api.ts).
 */

export const McpServerViewSchema = z.object({
  name: z.string(),
  source: McpServerSourceSchema,
  file: z.string(),
  transport: z.enum(['stdio', 'http']),
  /** The command line or URL, as the person approves it. */
  shown: z.string(),
  active: z.boolean(),
  inactiveReason: z.string().nullable(),
  /** A project server that waits only for the person's approval. */
  needsApproval: z.boolean(),
  /** A project server that loads because the person approved it (revocable here). */
  approved: z.boolean(),
  /** Switched off for this project by the person (any server, the person's own too). */
  disabled: z.boolean(),
  /** How the open session's last prompt found it (connected or not, its tools, its last errors); null: not run yet. */
  lastRun: McpServerRunStatusSchema.nullable(),
});
export type McpServerView = z.infer<typeof McpServerViewSchema>;

export const McpTestViewSchema = z.object({
  name: z.string(),
  status: McpServerRunStatusSchema,
  tools: z.array(z.object({ name: z.string(), tool: z.string(), category: z.enum(['read', 'write', 'exec']) })),
});
export type McpTestView = z.infer<typeof McpTestViewSchema>;

const serverName = z.object({ name: z.string().min(1).max(64) }).strict();

export const McpChannels = {
  listMcpServers: {
    request: z.object({}).strict(),
    response: z.object({
      project: z.string().nullable(),
      trusted: z.boolean(),
      /** The project's trust enables its MCP servers (true when it is not trusted: nothing to switch). */
      mcpEnabled: z.boolean(),
      servers: z.array(McpServerViewSchema),
      /** Configuration problems that kept a server from loading (file: key: reason). */
      problems: z.array(z.string()),
    }),
  },
  approveMcpServer: { request: serverName, response: z.object({ changed: z.boolean() }) },
  revokeMcpServer: { request: serverName, response: z.object({ changed: z.boolean() }) },
  /** Switches a server off (or back on) for the open project, whatever its source. */
  setMcpServerEnabled: {
    request: z.object({ name: z.string().min(1).max(64), enabled: z.boolean() }).strict(),
    response: z.object({ changed: z.boolean() }),
  },
  testMcpServer: { request: serverName, response: McpTestViewSchema },
} as const;
