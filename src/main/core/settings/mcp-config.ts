import { McpServerEntrySchema, serverNameProblem, type McpServerEntry } from '../../../shared/mcp-contract';

/** One server entry of one file that parsed: its name and entry. */
export interface FileMcpServer {
  name: string;
  entry: McpServerEntry;
}

/** An entry that did not parse: reported with its key (`mcpServers.<name>.<field>`); that server does not load. */
export interface McpEntryProblem {
  /** `mcpServers.github.url`, `mcpServers` */
  key: string;
  /** The key path inside the file (for its line number). */
  path: (string | number)[];
  reason: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why an entry that has the shape of one transport failed, in one line. */
function entryProblem(name: string, raw: unknown): McpEntryProblem {
  const at = (field: string | null, reason: string): McpEntryProblem => ({
    key: field === null ? `mcpServers.${name}` : `mcpServers.${name}.${field}`,
    path: field === null ? ['mcpServers', name] : ['mcpServers', name, field],
    reason,
  });
  if (!isRecord(raw)) return at(null, 'a server entry must be an object: { command, args } or { type: http, url }');
  const type = raw.type;
  if (type === 'sse') return at('type', 'the SSE transport is not supported: use type: http (Streamable HTTP)');
  if (type !== undefined && type !== 'stdio' && type !== 'http')
    return at('type', `unknown transport ${JSON.stringify(type)}: use stdio (command) or http (url)`);
  if (type === undefined && raw.url !== undefined && raw.command === undefined)
    return at('type', 'an entry with a url needs type: http');
  const http = type === 'http';
  const parsed = (http ? McpServerEntrySchema.options[1] : McpServerEntrySchema.options[0]).safeParse(raw);
  if (parsed.success) return at(null, 'invalid entry');
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? issue.path.map(String).join('.') : null;
  const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : null;
  if (unknownKeys)
    return at(
      unknownKeys[0] ?? null,
      `unknown field${unknownKeys.length > 1 ? 's' : ''} ${unknownKeys.map((k) => JSON.stringify(k)).join(', ')} for a ${http ? 'http' : 'stdio'} server`,
    );
  return at(field, issue.message);
}

/**
 * The `mcpServers` block of one file: the entries that parse, and a problem (with its key) for each that does not.
 * A malformed entry never loosens anything: that server just does not load; the rest of the file applies.
 */
export function parseMcpServers(raw: unknown): { servers: FileMcpServer[]; problems: McpEntryProblem[] } {
  const servers: FileMcpServer[] = [];
  const problems: McpEntryProblem[] = [];
  if (raw === undefined || raw === null) return { servers, problems };
  if (!isRecord(raw))
    return {
      servers,
      problems: [{ key: 'mcpServers', path: ['mcpServers'], reason: 'mcpServers must be a map of name -> server' }],
    };
  for (const [name, value] of Object.entries(raw)) {
    const badName = serverNameProblem(name);
    if (badName) {
      problems.push({ key: `mcpServers.${name}`, path: ['mcpServers', name], reason: badName });
      continue;
    }
    const parsed = McpServerEntrySchema.safeParse(value);
    if (parsed.success) servers.push({ name, entry: parsed.data });
    else problems.push(entryProblem(name, value));
  }
  return { servers, problems };
}

/** How a server runs, in one line a person can check before approving it: the command line or the URL. */
export function describeEntry(entry: McpServerEntry): string {
  if (entry.type === 'http') return entry.url;
  return [entry.command, ...(entry.args ?? [])]
    .map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w)))
    .join(' ');
}
