import { z } from 'zod';
import { McpServerEntrySchema, McpServerRunStatusSchema, McpServerSourceSchema } from './mcp-contract';

/**
 * The MCP page's channels: the open project's MCP servers (where each comes from, its command line or URL, whether
 * it loads and why not), approving and revoking a project server (the same approvals as `gatehouse mcp approve`),
 * and testing one (started as a run would, its tools listed with their category, then stopped). Spread into
 * `ApiChannels` (api.ts).
 */

const McpServerViewSchema = z.object({
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
  /** When that prompt reported its servers (ISO time); null: no prompt yet. */
  lastRunAt: z.string().nullable(),
  /** The last test of it as configured now (the MCP page's Test, this app run); null: not tested. */
  lastTest: z
    .object({
      state: McpServerRunStatusSchema.shape.state,
      tools: z.number().int().nonnegative(),
      /** Its last error, when it did not start. */
      error: z.string().nullable(),
      at: z.string(),
    })
    .nullable(),
  /**
   * The scope file it can be edited and removed in from the page (user, project or local settings.yaml); null when it
   * is not one of those (policy, `.mcp.json`, a settings.json): `readOnlyReason` says why.
   */
  editableScope: z.enum(['user', 'project', 'local']).nullable(),
  readOnlyReason: z.string().nullable(),
  /** The entry as configured, for the edit form (only for an editable server). */
  entry: McpServerEntrySchema.nullable(),
});
export type McpServerView = z.infer<typeof McpServerViewSchema>;

const McpTestViewSchema = z.object({
  name: z.string(),
  status: McpServerRunStatusSchema,
  tools: z.array(z.object({ name: z.string(), tool: z.string(), category: z.enum(['read', 'write', 'exec']) })),
});
export type McpTestView = z.infer<typeof McpTestViewSchema>;

const serverName = z.object({ name: z.string().min(1).max(64) }).strict();

/** The settings file a server is written to: yours (every project), the project's (shared), or local (yours, here). */
export const McpScopeSchema = z.enum(['user', 'project', 'local']);
export type McpScope = z.infer<typeof McpScopeSchema>;

/** A server as the MCP page writes it: checked again in main (name, entry, what a person surely did not mean). */
const McpServerWriteSchema = z
  .object({ name: z.string().min(1).max(64), scope: McpScopeSchema, entry: McpServerEntrySchema })
  .strict();
const serverAt = z.object({ name: z.string().min(1).max(64), scope: McpScopeSchema }).strict();

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
      /** The settings.yaml each scope's servers are written to (null: no project open). */
      scopeFiles: z.object({ user: z.string(), project: z.string(), local: z.string() }).nullable(),
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
  /**
   * Adds a server to a scope's settings.yaml (as `gatehouse mcp add`); refused when the name is taken there. A project
   * or local server added here is approved for the open project as written (the person wrote it).
   */
  addMcpServer: { request: McpServerWriteSchema, response: z.object({ file: z.string() }) },
  /** Replaces a server (its entry, and its name or scope when they change: written to the new place first); approved as written. */
  updateMcpServer: {
    request: z.object({ from: serverAt, to: McpServerWriteSchema }).strict(),
    response: z.object({ file: z.string() }),
  },
  /** Removes a server from a scope's settings.yaml (as `gatehouse mcp remove`). */
  removeMcpServer: { request: serverAt, response: z.object({ file: z.string() }) },
} as const;
