import type { z } from 'zod';
import { GatehouseError } from '../../../shared/errors';
import type { McpServerRunStatus } from '../../../shared/mcp-contract';
import type { McpChannels } from '../../../shared/mcp-view-contract';
import type { McpServerEntry } from '../../../shared/mcp-contract';
import type { McpScope, McpServerView } from '../../../shared/mcp-view-contract';
import { describeEntry } from '../../core/settings/mcp-config';
import { McpApprovals } from '../../core/mcp/mcp-approvals';
import { addMcpServer, removeMcpServer, updateMcpServer } from '../../core/mcp/mcp-writer';
import { resolveMcpServers, type McpServerStatus } from '../../core/mcp/mcp-servers';
import { testMcpServer } from '../../core/mcp/mcp-test';
import { homeDir } from '../../core/fs/config-dir';
import { trustAnswer, type TrustOracle } from '../../core/permission/trust-oracle';
import { scopeFile } from '../../core/settings/settings-locations';
import { SettingsStore } from '../../core/settings/settings-store';
import type { WorkerHost } from '../../core/worker-host-types';

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
  /** The open session's MCP servers as its last prompt found them, and when. */
  lastRun?(project: string): { servers: McpServerRunStatus[]; at: string | null };
}

/** Where a listed server can be edited from the page: its scope's settings.yaml only (the file the writer writes). */
function editPlace(
  s: McpServerStatus,
  project: string,
  configDir: string,
): Pick<McpServerView, 'editableScope' | 'readOnlyReason'> {
  if (s.source === 'user' || s.source === 'project' || s.source === 'local') {
    if (s.file === scopeFile(s.source, project, configDir)) return { editableScope: s.source, readOnlyReason: null };
    return { editableScope: null, readOnlyReason: `configured in ${s.file}: edit that file` };
  }
  if (s.source === 'policy')
    return { editableScope: null, readOnlyReason: 'managed policy: only your organisation changes it' };
  return { editableScope: null, readOnlyReason: `the project's .mcp.json (Claude Code's file): edit ${s.file}` };
}

type LastTest = NonNullable<McpServerView['lastTest']>;

/**
 * The MCP page: the same list as `gatehouse mcp list`, approve and revoke as `gatehouse mcp approve|revoke`, test as
 * `gatehouse mcp test` (through the session's worker: same client, same sandbox), and add, edit and remove with the
 * writer of `gatehouse mcp add|remove`. The last test of each server (as configured when tested) is remembered for
 * this app run, so its badge says how that test went.
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
    const [snapshot, trust] = await Promise.all([store.snapshot(), trustAnswer(opts.trust, project)]);
    return { trust, ...(await resolveMcpServers({ projectRoot: project, snapshot, trust, approvals })) };
  };
  const personal = new Set(['user', 'policy']);
  // project -> "name\0command line or URL" -> its last test: a changed entry has not been tested.
  const tests = new Map<string, Map<string, LastTest>>();
  const testKey = (name: string, shown: string): string => `${name}\0${shown}`;
  const place = () => ({ projectRoot: requireProject(), configDir: opts.configDir });
  // A project or local server the person wrote on this page is approved as written: typing it is the approval. A
  // changed entry needs a new approval anyway (the fingerprint), and trust still decides whether it loads.
  const approveWritten = async (server: { name: string; scope: McpScope; entry: McpServerEntry }): Promise<void> => {
    if (server.scope === 'user') return;
    await approvals.approve(requireProject(), server.name, server.entry, describeEntry(server.entry));
  };
  return {
    listMcpServers: async () => {
      const project = opts.currentProject();
      if (!project) return { project, trusted: false, mcpEnabled: true, servers: [], problems: [], scopeFiles: null };
      const r = await resolve(project);
      const found = opts.lastRun?.(project) ?? { servers: [], at: null };
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
          lastRun: (s.active && found.servers.find((f) => f.name === s.name)) || null,
          lastRunAt: found.at,
          lastTest: (s.active && tests.get(project)?.get(testKey(s.name, s.shown))) || null,
          ...editPlace(s, project, opts.configDir),
          entry: editPlace(s, project, opts.configDir).editableScope ? s.entry : null,
        })),
        problems: r.problems.map((p) => `${p.file}${p.key ? `: ${p.key}` : ''}: ${p.reason}`),
        scopeFiles: {
          user: scopeFile('user', project, opts.configDir),
          project: scopeFile('project', project, opts.configDir),
          local: scopeFile('local', project, opts.configDir),
        },
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
      const project = requireProject();
      const result = await testMcpServer({
        name,
        projectRoot: project,
        configDir: opts.configDir,
        home: homeDir(opts.env),
        env: opts.env,
        trust: opts.trust,
        host: opts.host,
      });
      const errors = result.status.errors.filter((e) => !result.status.skipped.some((k) => k.reason === e));
      if (!tests.has(project)) tests.set(project, new Map());
      tests.get(project)!.set(testKey(name, result.server.shown), {
        state: result.status.state,
        tools: result.status.tools.length,
        error: result.status.state === 'ready' ? null : (errors.at(-1) ?? null),
        at: new Date().toISOString(),
      });
      return { name, status: result.status, tools: result.tools };
    },
    addMcpServer: async (server) => {
      const written = await addMcpServer(place(), server);
      await approveWritten(server);
      return written;
    },
    updateMcpServer: async ({ from, to }) => {
      const written = await updateMcpServer(place(), from, to);
      await approveWritten(to);
      return written;
    },
    removeMcpServer: (server) => removeMcpServer(place(), server),
  };
}
