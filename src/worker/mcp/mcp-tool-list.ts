/**
 * A server's `tools/list` as the model may see it: each tool named `mcp__<server>__<tool>`, with its input schema.
 * A tool whose name would not make one valid, unambiguous model tool name, or whose input schema is not an object
 * schema, is left out with the reason (shown with the server's status). Names and descriptions are the server's
 * words: untrusted, shown to the model as they are, never used for a decision.
 */
import { MCP_TOOL_NAME, mcpToolName, parseMcpToolName } from '../../shared/mcp-contract';

/** Longest description the model gets for one tool. */
const MAX_DESCRIPTION_CHARS = 2_000;
/** Largest input schema (JSON) taken from a server. */
const MAX_SCHEMA_CHARS = 50_000;

export interface ListedTool {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
  annotations?: { readOnlyHint?: boolean | undefined } | undefined;
}

export interface McpToolDef {
  /** `mcp__<server>__<tool>`. */
  name: string;
  server: string;
  /** The server's own name for it. */
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnlyHint: boolean;
}

export interface SkippedTool {
  tool: string;
  reason: string;
}

export function acceptTools(
  server: string,
  listed: readonly ListedTool[],
): { tools: McpToolDef[]; skipped: SkippedTool[] } {
  const tools: McpToolDef[] = [];
  const skipped: SkippedTool[] = [];
  const seen = new Set<string>();
  for (const t of listed) {
    const name = mcpToolName(server, t.name);
    const shown = JSON.stringify(t.name).slice(0, 100);
    const parsed = parseMcpToolName(name);
    if (!MCP_TOOL_NAME.test(name) || parsed === null || parsed.server !== server || parsed.tool !== t.name) {
      skipped.push({
        tool: t.name,
        reason: `tool ${shown} is left out: ${name.length > 64 ? `${name.length} characters` : 'its name'} would not make a valid tool name mcp__${server}__<tool> (letters, digits, "_" and "-", 64 characters in all)`,
      });
      continue;
    }
    if (seen.has(name)) {
      skipped.push({ tool: t.name, reason: `tool ${shown} is left out: the server lists that name twice` });
      continue;
    }
    const schema = t.inputSchema;
    if (
      typeof schema !== 'object' ||
      schema === null ||
      Array.isArray(schema) ||
      (schema as { type?: unknown }).type !== 'object'
    ) {
      skipped.push({
        tool: t.name,
        reason: `tool ${shown} is left out: its input schema is not an object schema (type: "object")`,
      });
      continue;
    }
    const json = JSON.stringify(schema);
    if (json.length > MAX_SCHEMA_CHARS) {
      skipped.push({
        tool: t.name,
        reason: `tool ${shown} is left out: its input schema is ${json.length} characters (at most ${MAX_SCHEMA_CHARS})`,
      });
      continue;
    }
    seen.add(name);
    const inputSchema = JSON.parse(json) as Record<string, unknown>;
    delete inputSchema.$schema;
    tools.push({
      name,
      server,
      tool: t.name,
      description:
        (t.description ?? '').slice(0, MAX_DESCRIPTION_CHARS) || `Tool ${t.name} of the MCP server ${server}.`,
      inputSchema,
      readOnlyHint: t.annotations?.readOnlyHint === true,
    });
  }
  return { tools, skipped };
}
