import path from 'node:path';
import {
  isPersonalSource,
  type ActiveMcpServer,
  type McpServerEntry,
  type McpServerSource,
} from '../../../shared/mcp-contract';
import { isMissing, MAX_SETTINGS_BYTES, readFailure, readRegularFile } from '../fs/read-regular-file';
import type { TrustAnswer } from '../permission/trust-oracle';
import type { SettingsSnapshot } from '../settings/settings-store';
import type { McpApprovals } from './mcp-approvals';
import { describeEntry, parseMcpServers } from '../settings/mcp-config';

/** One configured server and whether it loads in this project, and why not. */
export interface McpServerStatus {
  name: string;
  source: McpServerSource;
  file: string;
  transport: 'stdio' | 'http';
  /** The command line or URL, as the person approves it. */
  shown: string;
  entry: McpServerEntry;
  active: boolean;
  /** Why it does not load (null when active). */
  why: string | null;
  /** A project server that only waits for the person's approval (trusted project, MCP enabled). */
  needsApproval: boolean;
  /** The person switched it off in this project (`gatehouse mcp disable`, the MCP page). */
  disabled: boolean;
}

/** A configuration problem that kept a server from loading (file, key, reason). */
export interface McpConfigProblem {
  file: string;
  key: string;
  reason: string;
}

function mcpJsonFile(projectRoot: string): string {
  return path.join(projectRoot, '.mcp.json');
}

/** The project's `.mcp.json` (Claude Code's project file): its servers and problems. Missing: none. */
async function readMcpJson(
  projectRoot: string,
): Promise<{ servers: ReturnType<typeof parseMcpServers>['servers']; problems: McpConfigProblem[] }> {
  const file = mcpJsonFile(projectRoot);
  let text: string;
  try {
    text = await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' });
  } catch (err) {
    if (isMissing(err)) return { servers: [], problems: [] };
    return { servers: [], problems: [{ file, key: '', reason: readFailure(err) }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { servers: [], problems: [{ file, key: '', reason: `not valid JSON: ${(err as Error).message}` }] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { servers: [], problems: [{ file, key: '', reason: 'expected { "mcpServers": { ... } }' }] };
  const parsed = parseMcpServers((json as Record<string, unknown>).mcpServers);
  return { servers: parsed.servers, problems: parsed.problems.map((p) => ({ file, key: p.key, reason: p.reason })) };
}

/** Precedence of a name defined in several places: the person's own first (a project never replaces them). */
const ORDER: readonly McpServerSource[] = ['policy', 'user', 'local', 'project', 'mcp.json'];

/**
 * Every configured MCP server of a project and whether it loads: the person's own (policy, user settings) always;
 * a project's (local and project settings, `.mcp.json`) only in a trusted project whose trust enables MCP servers,
 * and only after the person approved that server (as it is configured now) once for this project.
 */
export async function resolveMcpServers(opts: {
  projectRoot: string;
  snapshot: SettingsSnapshot;
  trust: TrustAnswer;
  approvals: McpApprovals;
}): Promise<{ servers: McpServerStatus[]; problems: McpConfigProblem[] }> {
  const mcpJson = await readMcpJson(opts.projectRoot);
  const candidates = [
    ...opts.snapshot.mcpServers.map((s) => ({ ...s, source: s.source as McpServerSource })),
    ...mcpJson.servers.map((s) => ({ ...s, source: 'mcp.json' as const, file: mcpJsonFile(opts.projectRoot) })),
  ].sort((a, b) => ORDER.indexOf(a.source) - ORDER.indexOf(b.source));
  const taken = new Map<string, McpServerSource>();
  const servers: McpServerStatus[] = [];
  for (const c of candidates) {
    const base = {
      name: c.name,
      source: c.source,
      file: c.file,
      transport: c.entry.type === 'http' ? ('http' as const) : ('stdio' as const),
      shown: describeEntry(c.entry),
      entry: c.entry,
      needsApproval: false,
      disabled: false,
    };
    const earlier = taken.get(c.name);
    if (earlier !== undefined) {
      servers.push({ ...base, active: false, why: `a server of this name is defined in ${earlier} settings` });
      continue;
    }
    taken.set(c.name, c.source);
    if (await opts.approvals.isDisabled(opts.projectRoot, c.name)) {
      servers.push({
        ...base,
        active: false,
        disabled: true,
        why: 'switched off for this project (gatehouse mcp enable, or Enable on the MCP page)',
      });
      continue;
    }
    if (isPersonalSource(c.source)) {
      servers.push({ ...base, active: true, why: null });
      continue;
    }
    if (!opts.trust.trusted) {
      servers.push({ ...base, active: false, why: 'this project is not trusted' });
      continue;
    }
    if (!opts.trust.extensions.mcp) {
      servers.push({ ...base, active: false, why: "this project's trust does not enable its MCP servers" });
      continue;
    }
    if (!(await opts.approvals.isApproved(opts.projectRoot, c.name, c.entry))) {
      servers.push({
        ...base,
        active: false,
        needsApproval: true,
        why: 'not approved yet: a project server starts only after you approve it (gatehouse mcp approve)',
      });
      continue;
    }
    servers.push({ ...base, active: true, why: null });
  }
  const problems = [
    ...opts.snapshot.keyProblems
      .filter((p) => p.key.startsWith('mcpServers'))
      .map((p) => ({ file: p.file, key: p.key, reason: p.reason })),
    ...mcpJson.problems,
  ];
  return { servers, problems };
}

/** The servers the worker connects to, as it receives them. */
export function activeServers(servers: readonly McpServerStatus[]): ActiveMcpServer[] {
  return servers
    .filter((s) => s.active)
    .map((s) => ({ name: s.name, source: s.source, entry: s.entry, readOnlyHints: isPersonalSource(s.source) }));
}
