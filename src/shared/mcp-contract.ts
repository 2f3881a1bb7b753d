import { z } from 'zod';

/**
 * MCP servers (Model Context Protocol): their configuration entries, in Claude Code's `mcpServers` shape (so a
 * project's `.mcp.json` works unchanged), and the names their tools get: `mcp__<server>__<tool>`.
 *
 *   mcpServers:
 *     github: { command: npx, args: [-y, some-server], env: { MODE: ro }, envAllowList: [GITHUB_TOKEN],
 *               allowedDomains: [api.github.com] }
 *     docs:   { type: http, url: "https://mcp.example.com/mcp", headers: { X-Team: core } }
 *
 * Gatehouse adds `allowedDomains` (the hosts a stdio server may reach through the sandbox's proxy; none by default)
 * and `envAllowList` (names of the caller's environment variables the server receives; none by default).
 */

export const MCP_PREFIX = 'mcp__';

/**
 * A server name: letters, digits, `-` and single `_` between them (no `__`, no leading or trailing `_`), so the tool
 * name `mcp__<server>__<tool>` splits back into one server and one tool.
 */
const MCP_SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const MAX_SERVER_NAME = 64;
/** A tool name as the model sees it (the Messages API's limit on tool names). */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Why `name` cannot name an MCP server, or null. */
export function serverNameProblem(name: string): string | null {
  if (name.length === 0) return 'a server name must not be empty';
  if (name.length > MAX_SERVER_NAME) return `a server name is at most ${MAX_SERVER_NAME} characters`;
  if (name.includes('__'))
    return `"${name}" holds "__": tool names are mcp__<server>__<tool>, so a server name must not contain "__"`;
  if (!MCP_SERVER_NAME.test(name))
    return `"${name}" is not a server name: use letters, digits, "-" and single "_" between them`;
  return null;
}

/** `mcp__<server>__<tool>`. */
export function mcpToolName(server: string, tool: string): string {
  return `${MCP_PREFIX}${server}__${tool}`;
}

/** The server and tool of an MCP tool name, or null when `name` is not one. */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(MCP_PREFIX)) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const at = rest.indexOf('__');
  if (at <= 0) return null;
  const server = rest.slice(0, at);
  const tool = rest.slice(at + 2);
  if (serverNameProblem(server) !== null || tool.length === 0) return null;
  if (!MCP_TOOL_NAME.test(name)) return null;
  return { server, tool };
}

export function isMcpToolName(name: string): boolean {
  return parseMcpToolName(name) !== null;
}

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not an environment variable name');
const Domain = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .regex(/^(\*\.)?[A-Za-z0-9.-]+$/, 'a host name, or *.domain');
const Timeout = z.number().int().min(1).max(3_600_000);

const McpStdioEntrySchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'command must not be empty'),
  args: z.array(z.string()).max(1000).optional(),
  /** Variables set for the server, with their values (Claude Code's `env`). */
  env: z.record(EnvName, z.string()).optional(),
  /** Names of the caller's environment variables passed on (Gatehouse). */
  envAllowList: z.array(EnvName).max(1000).optional(),
  /** Hosts the server may reach through the sandbox's proxy (Gatehouse); none by default. */
  allowedDomains: z.array(Domain).max(1000).optional(),
  /** How long one tool call may take, in ms. */
  timeout: Timeout.optional(),
});

const McpHttpEntrySchema = z.strictObject({
  type: z.literal('http'),
  url: z
    .string()
    .max(2000)
    .refine((u) => {
      try {
        const parsed = new URL(u);
        return parsed.protocol === 'https:' || parsed.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'url must be an http:// or https:// address'),
  headers: z.record(z.string().min(1), z.string()).optional(),
  timeout: Timeout.optional(),
});

export const McpServerEntrySchema = z.union([McpStdioEntrySchema, McpHttpEntrySchema]);
export type McpServerEntry = z.infer<typeof McpServerEntrySchema>;
export type McpStdioEntry = z.infer<typeof McpStdioEntrySchema>;
export type McpHttpEntry = z.infer<typeof McpHttpEntrySchema>;

export function isHttpEntry(entry: McpServerEntry): entry is McpHttpEntry {
  return entry.type === 'http';
}

/** Where a server's entry came from. `mcp.json`: the project's `.mcp.json` (Claude Code's project file). */
export const McpServerSourceSchema = z.enum(['policy', 'user', 'project', 'local', 'mcp.json']);
export type McpServerSource = z.infer<typeof McpServerSourceSchema>;

/** Servers a person configured for themselves (or managed policy): their tools' readOnlyHint counts. */
export function isPersonalSource(source: McpServerSource): boolean {
  return source === 'user' || source === 'policy';
}

/**
 * One server the worker connects to, as main sends it: the entry, and what main decided about it. `readOnlyHints`:
 * whether a tool's `readOnlyHint` makes it a read (only for the person's own servers).
 */
export const ActiveMcpServerSchema = z.object({
  name: z.string().regex(MCP_SERVER_NAME),
  source: McpServerSourceSchema,
  entry: McpServerEntrySchema,
  readOnlyHints: z.boolean(),
});
export type ActiveMcpServer = z.infer<typeof ActiveMcpServerSchema>;

/** One MCP tool as the worker found it on a server (names and descriptions are the server's: untrusted). */
const McpToolInfoSchema = z.object({
  name: z.string(),
  server: z.string(),
  tool: z.string(),
  /** The tool's own `readOnlyHint` annotation (main decides whether it counts: see isPersonalSource). */
  readOnlyHint: z.boolean(),
});

/** A server as a run found it: connected or not, its tools, the tools left out and why, its last errors. */
export const McpServerRunStatusSchema = z.object({
  name: z.string().max(MAX_SERVER_NAME),
  state: z.enum(['starting', 'ready', 'restarting', 'failed', 'stopped']),
  tools: z.array(McpToolInfoSchema).max(1000),
  skipped: z.array(z.object({ tool: z.string().max(1000), reason: z.string().max(2000) })).max(1000),
  errors: z.array(z.string().max(5000)).max(20),
});
export type McpServerRunStatus = z.infer<typeof McpServerRunStatusSchema>;

// C0 controls and DEL: never part of a program name, an argument a person typed, or a header.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * What the checks of the entry's shape let through but a person writing a server (the MCP page, `gatehouse mcp add`)
 * surely did not mean, each in one line, or []: a command line typed whole into `command` ("npx -y server": the
 * program is started without a shell, so it would look for a program of that name), control characters, a header
 * that would split into two. A path to a program (`/…`, `./…`, `~/…`, `C:\…`) may hold spaces (`/opt/My Tools/server`).
 */
export function mcpEntryProblems(entry: McpServerEntry): string[] {
  const problems: string[] = [];
  if (isHttpEntry(entry)) {
    for (const [name, value] of Object.entries(entry.headers ?? {})) {
      if (!HEADER_NAME.test(name)) problems.push(`headers: "${name}" is not an HTTP header name`);
      if (/[\r\n]/.test(value) || NUL.test(value)) problems.push(`headers.${name}: a header value must be one line`);
    }
    return problems;
  }
  const command = entry.command;
  if (CONTROL.test(command)) problems.push('command: must not hold control characters (a line break, a tab…)');
  else if (command.trim() !== command) problems.push('command: must not start or end with a space');
  else if (/\s/.test(command) && !/^(?:\.{0,2}\/|~\/|[A-Za-z]:[\\/])/.test(command))
    problems.push(
      `command: "${command}" holds spaces: give the program alone in command and each of its arguments in args (it is started without a shell)`,
    );
  (entry.args ?? []).forEach((arg, i) => {
    if (NUL.test(arg)) problems.push(`args.${i}: must not hold a NUL character`);
  });
  for (const [name, value] of Object.entries(entry.env ?? {}))
    if (NUL.test(value)) problems.push(`env.${name}: must not hold a NUL character`);
  return problems;
}
