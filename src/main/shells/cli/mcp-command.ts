import { serverNameProblem, type McpServerEntry } from '../../../shared/mcp-contract';
import { McpApprovals } from '../../core/mcp/mcp-approvals';
import { resolveMcpServers, type McpServerStatus } from '../../core/mcp/mcp-servers';
import { homeDir, userConfigDir } from '../../core/fs/config-dir';
import { trustAnswer } from '../../core/permission/trust-oracle';
import { addMcpServer, checkedServer, removeMcpServer } from '../../core/mcp/mcp-writer';
import { SettingsStore } from '../../core/settings/settings-store';
import { storeOracle } from '../../core/trust/trust-extensions';
import { TrustStore } from '../../core/trust/trust-store';
import { parseCommandArgs, pick, unknownChoice } from './args';
import { SCOPES } from './cli-options';
import type { CliCommand, CliIO, CommandHelp } from './command';
import { MCP_OPTIONS } from './mcp-options';
import { UsageError } from './command';
import { projectDir } from './project';
import { mcpTest } from './mcp-test-command';

const HELP: CommandHelp = {
  description:
    "MCP servers from your settings and the project's (mcpServers in settings.yaml, .mcp.json): where each comes " +
    "from, and whether it loads and why not. A project's server starts only in a trusted folder and after you " +
    'approve it; stdio servers run in the OS sandbox. Every call of their tools goes through the permission engine.',
  forms: [
    {
      usage: 'list [--project DIR] [--json]',
      does: 'every server, its source, command line or URL, and whether it loads',
    },
    { usage: 'approve NAME [--project DIR]', does: 'start this project server from now on (as it is configured now)' },
    { usage: 'revoke NAME [--project DIR]', does: 'forget that approval' },
    {
      usage: 'disable|enable NAME [--project DIR]',
      does: 'switch a server off (any source, your own too) or back on in this project',
    },
    {
      usage:
        'add NAME [--scope SCOPE] [--project DIR] (-- COMMAND [ARG]... | --url URL) [--env K=V]... ' +
        '[--env-allow NAME]... [--allow-domain HOST]... [--header K=V]...',
      does: 'add a stdio server (the command after --) or an HTTP one (--url) to a settings file',
    },
    { usage: 'remove NAME [--scope SCOPE] [--project DIR]', does: 'remove it from that settings file' },
    {
      usage: 'test NAME [--project DIR] [--json]',
      does: 'start it as a run would (sandboxed), list its tools and their category (read or exec)',
    },
  ],
  options: MCP_OPTIONS,
  examples: [
    { command: 'gatehouse mcp list', does: 'the servers of the current folder' },
    {
      command: 'gatehouse mcp add files -- npx -y @modelcontextprotocol/server-filesystem .',
      does: 'add a stdio server to your own settings',
    },
    {
      command: 'gatehouse mcp add docs --scope local --url https://mcp.example.com/mcp',
      does: 'add an HTTP server for this project, on this machine only',
    },
    { command: 'gatehouse mcp test files', does: 'start it and list its tools' },
  ],
};

async function servers(
  io: CliIO,
  project: string | undefined,
): Promise<{ projectRoot: string; trusted: boolean; list: McpServerStatus[]; problems: string[] }> {
  const projectRoot = projectDir(project, io.cwd);
  const configDir = userConfigDir(io.env);
  const snapshot = await new SettingsStore({
    projectRoot,
    configDir,
    home: homeDir(io.env),
    env: io.env,
  }).snapshot();
  const trust = await trustAnswer(storeOracle(new TrustStore({ configDir, env: io.env })), projectRoot);
  const resolved = await resolveMcpServers({ projectRoot, snapshot, trust, approvals: new McpApprovals(configDir) });
  const problems = resolved.problems.map((p) => `${p.file}${p.key ? `: ${p.key}` : ''}: ${p.reason}`);
  return { projectRoot, trusted: trust.trusted, list: resolved.servers, problems };
}

function printList(io: CliIO, r: Awaited<ReturnType<typeof servers>>): void {
  io.out(`MCP servers for ${r.projectRoot} (${r.trusted ? 'trusted' : 'not trusted'}):`);
  if (r.list.length === 0) io.out('  (none configured)');
  for (const s of r.list) {
    io.out(`  ${s.name}  ${s.transport}  ${s.source} ${s.file}`);
    io.out(`    ${s.shown}`);
    io.out(`    ${s.active ? 'active' : `inactive: ${s.why}`}`);
  }
  for (const p of r.problems) io.out(`  not loaded: ${p}`);
}

function keyValues(list: readonly string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} "${item}": expected NAME=VALUE`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

/** The scope of --scope (the parser checked it is one of SCOPES), default user. */
function scopeOf(value: string | undefined): (typeof SCOPES)[number] {
  return (value ?? 'user') as (typeof SCOPES)[number];
}

function oneName(positionals: string[]): string {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError('expected exactly one server NAME');
  return positionals[0];
}

async function add(rest: string[], io: CliIO): Promise<number> {
  const dash = rest.indexOf('--');
  const command = dash === -1 ? [] : rest.slice(dash + 1);
  const { values, positionals } = parseCommandArgs(
    dash === -1 ? rest : rest.slice(0, dash),
    pick(MCP_OPTIONS, 'scope', 'project', 'url', 'env', 'env-allow', 'allow-domain', 'header'),
  );
  const projectRoot = projectDir(values.project, io.cwd);
  const name = oneName(positionals);
  const bad = serverNameProblem(name);
  if (bad) throw new UsageError(bad);
  if (command.length > 0 === (values.url !== undefined))
    throw new UsageError('give either -- COMMAND [ARG]... (stdio) or --url URL (http)');
  const raw: Record<string, unknown> =
    values.url !== undefined
      ? { type: 'http', url: values.url, ...(values.header ? { headers: keyValues(values.header, '--header') } : {}) }
      : {
          command: command[0],
          ...(command.length > 1 ? { args: command.slice(1) } : {}),
          ...(values.env ? { env: keyValues(values.env, '--env') } : {}),
          ...(values['env-allow'] ? { envAllowList: values['env-allow'] } : {}),
          ...(values['allow-domain'] ? { allowedDomains: values['allow-domain'] } : {}),
        };
  let entry: McpServerEntry;
  try {
    entry = checkedServer(name, raw);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const scope = scopeOf(values.scope);
  try {
    const { file } = await addMcpServer({ projectRoot, configDir: userConfigDir(io.env) }, { name, scope, entry });
    io.out(`added MCP server "${name}" to ${file}`);
    return 0;
  } catch (err) {
    io.err(`gatehouse mcp: ${(err as Error).message}`);
    return 1;
  }
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  help: HELP,
  async run(args, io) {
    const [sub, ...rest] = args;
    switch (sub) {
      case 'list': {
        const { values, positionals } = parseCommandArgs(rest, pick(MCP_OPTIONS, 'project', 'json'));
        if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
        const r = await servers(io, values.project);
        if (values.json)
          io.out(
            JSON.stringify({
              project: r.projectRoot,
              trusted: r.trusted,
              servers: r.list.map((s) => ({
                name: s.name,
                source: s.source,
                file: s.file,
                transport: s.transport,
                shown: s.shown,
                active: s.active,
                inactiveReason: s.why,
              })),
              problems: r.problems,
            }),
          );
        else printList(io, r);
        return 0;
      }
      case 'approve':
      case 'revoke': {
        const { values, positionals } = parseCommandArgs(rest, pick(MCP_OPTIONS, 'project'));
        const name = oneName(positionals);
        const r = await servers(io, values.project);
        const approvals = new McpApprovals(userConfigDir(io.env));
        if (sub === 'revoke') {
          const removed = await approvals.revoke(r.projectRoot, name);
          io.out(
            removed ? `revoked: "${name}" no longer starts in ${r.projectRoot}` : `"${name}" was not approved here`,
          );
          return 0;
        }
        const server = r.list.find((s) => s.name === name && (s.active || s.needsApproval));
        if (!server) {
          const known = r.list.find((s) => s.name === name);
          io.err(
            `gatehouse mcp: ${known ? `"${name}" cannot be approved: ${known.why}` : `no MCP server "${name}" here`}`,
          );
          return 1;
        }
        if (server.active) {
          io.out(`"${name}" already loads (${server.source} server)`);
          return 0;
        }
        await approvals.approve(r.projectRoot, name, server.entry, server.shown);
        io.out(`approved "${name}" (${server.source}: ${server.shown}) for ${r.projectRoot}`);
        return 0;
      }
      case 'disable':
      case 'enable': {
        const { values, positionals } = parseCommandArgs(rest, pick(MCP_OPTIONS, 'project'));
        const name = oneName(positionals);
        const r = await servers(io, values.project);
        if (!r.list.some((s) => s.name === name)) {
          io.err(`gatehouse mcp: no MCP server "${name}" here`);
          return 1;
        }
        const off = sub === 'disable';
        const changed = await new McpApprovals(userConfigDir(io.env)).setDisabled(r.projectRoot, name, off);
        io.out(
          `${changed ? '' : 'already '}${off ? 'switched off' : 'switched on'}: "${name}" in ${r.projectRoot}` +
            (!off && changed ? ' (a project server still needs trust and your approval)' : ''),
        );
        return 0;
      }
      case 'add':
        return add(rest, io);
      case 'test':
        return mcpTest(rest, io);
      case 'remove': {
        const { values, positionals } = parseCommandArgs(rest, pick(MCP_OPTIONS, 'scope', 'project'));
        const projectRoot = projectDir(values.project, io.cwd);
        const name = oneName(positionals);
        try {
          const { file } = await removeMcpServer(
            { projectRoot, configDir: userConfigDir(io.env) },
            { name, scope: scopeOf(values.scope) },
          );
          io.out(`removed MCP server "${name}" from ${file}`);
          return 0;
        } catch (err) {
          io.err(`gatehouse mcp: ${(err as Error).message}`);
          return 1;
        }
      }
      default:
        throw unknownChoice('subcommand', sub, [
          'list',
          'approve',
          'revoke',
          'disable',
          'enable',
          'add',
          'remove',
          'test',
        ]);
    }
  },
};
