import type { z } from 'zod';
import { GatehouseError } from '../../shared/errors';
import type { McpServerRunStatus } from '../../shared/mcp-contract';
import type { McpChannels } from '../../shared/mcp-view-contract';
import { McpApprovals } from '../mcp/mcp-approvals';
import { resolveMcpServers } from '../mcp/mcp-servers';
import { testMcpServer } from '../mcp/mcp-test';
import { homeDir } from '../paths';
import { trustAnswerAsync, type TrustOracle } from '../permission/trust-oracle';
import { SettingsStore } from '../settings/settings-store';
import type { WorkerHost } from '../worker-host/types';

type Channels = typeof McpChannels;
export type McpHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

export interface McpHandlersOptions {
  currentProject(): string | null;
  configDir: string;
  env: NodeJS.ProcessEnv;
  trust: TrustOracle;
  host: Pick<WorkerHost, 'request'>;
  /** The open session's MCP servers as its last prompt found them. */
  lastRun?(project: string): McpServerRunStatus[];
}

/**
 * The MCP page: the same list as `gatehouse mcp list`, approve and revoke as `gatehouse mcp approve|revoke`, and
 * test as `gatehouse mcp test` (through the session's worker: same client, same sandbox).
 */
export function createMcpHandlers(opts: McpHandlersOptions): McpHandlers {
  const requireProject = (): string => {
    const project = opts.currentProject();
    if (!project) throw new GatehouseError('BAD_REQUEST', 'no project is open: open a folder to see its MCP servers');
    return project;
  };
  const approvals = new McpApprovals(opts.configDir);
  const resolve = async (project: string) => {
    const store = new SettingsStore({
      projectRoot: project,
      configDir: opts.configDir,
      home: homeDir(opts.env),
      env: opts.env,
    });
    const [snapshot, trust] = await Promise.all([store.snapshotAsync(), trustAnswerAsync(opts.trust, project)]);
    return { trust, ...(await resolveMcpServers({ projectRoot: project, snapshot, trust, approvals })) };
  };
  const personal = new Set(['user', 'policy']);
  return {
    listMcpServers: async () => {
      const project = opts.currentProject();
      if (!project) return { project, trusted: false, mcpEnabled: true, servers: [], problems: [] };
      const r = await resolve(project);
      const found = opts.lastRun?.(project) ?? [];
      return {
        project,
        trusted: r.trust.trusted,
        mcpEnabled: !r.trust.trusted || r.trust.extensions.mcp,
        servers: r.servers.map((s) => ({
          name: s.name,
          source: s.source,
          file: s.file,
          transport: s.transport,
          shown: s.shown,
          active: s.active,
          inactiveReason: s.why,
          needsApproval: s.needsApproval,
          approved: s.active && !personal.has(s.source),
          disabled: s.disabled,
          lastRun: (s.active && found.find((f) => f.name === s.name)) || null,
        })),
        problems: r.problems.map((p) => `${p.file}${p.key ? `: ${p.key}` : ''}: ${p.reason}`),
      };
    },
    approveMcpServer: async ({ name }) => {
      const project = requireProject();
      const server = (await resolve(project)).servers.find((s) => s.name === name);
      if (!server) throw new GatehouseError('NOT_FOUND', `no MCP server "${name}" is configured here`);
      if (server.active) return { changed: false };
      if (!server.needsApproval) throw new GatehouseError('BAD_REQUEST', `"${name}" cannot be approved: ${server.why}`);
      await approvals.approve(project, name, server.entry, server.shown);
      return { changed: true };
    },
    revokeMcpServer: async ({ name }) => ({ changed: await approvals.revoke(requireProject(), name) }),
    setMcpServerEnabled: async ({ name, enabled }) => {
      const project = requireProject();
      if (!(await resolve(project)).servers.some((s) => s.name === name))
        throw new GatehouseError('NOT_FOUND', `no MCP server "${name}" is configured here`);
      return { changed: await approvals.setDisabled(project, name, !enabled) };
    },
    testMcpServer: async ({ name }) => {
      const result = await testMcpServer({
        name,
        projectRoot: requireProject(),
        configDir: opts.configDir,
        home: homeDir(opts.env),
        env: opts.env,
        trust: opts.trust,
        host: opts.host,
      });
      return { name, status: result.status, tools: result.tools };
    },
  };
}
