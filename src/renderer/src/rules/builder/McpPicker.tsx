import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/errors';
import { useApi } from '../../api/context';
import { Shown } from '../../display/Shown';
import { Choice, ChoiceRadios } from './ChoiceRadios';
import { mcpRule } from './rule-text';

const EVERY_TOOL = '';

interface Server {
  name: string;
  /** Where the tools came from; null when none are known yet. */
  note: string | null;
  tools: string[];
}

/**
 * An MCP rule by pointing: the project's servers (as the MCP page lists them) with the tools the last run found and
 * the tools the audit log has seen, then the whole server or one tool.
 */
export function McpPicker({
  seed,
  onRule,
}: {
  seed: { server: string; tool: string | null; nonce: number } | null;
  onRule(rule: string | null): void;
}) {
  const api = useApi();
  const [servers, setServers] = useState<Server[] | null>(null);
  const [server, setServer] = useState<string | null>(null);
  const [tool, setTool] = useState<string>(EVERY_TOOL);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([api.listMcpServers({}), api.listAudit({ limit: 2000 })]).then(
      ([list, audit]) => {
        if (!live) return;
        const byName = new Map<string, Server>();
        for (const s of list.servers) {
          const tools = s.lastRun?.tools.map((t) => t.tool) ?? [];
          byName.set(s.name, {
            name: s.name,
            note: s.active ? null : (s.inactiveReason ?? 'not loaded'),
            tools,
          });
        }
        for (const e of audit.entries) {
          if (!e.mcp) continue;
          const s = byName.get(e.mcp.server) ?? { name: e.mcp.server, note: 'seen in the audit log', tools: [] };
          if (!s.tools.includes(e.mcp.tool)) s.tools.push(e.mcp.tool);
          byName.set(s.name, s);
        }
        const all = [...byName.values()];
        setServers(all);
        setServer((cur) => cur ?? all[0]?.name ?? null);
      },
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  // A call's tool (a new seed each "Make a rule"): its server and tool chosen.
  const seedServer = seed?.server ?? null;
  const seedTool = seed?.tool ?? null;
  const seedNonce = seed?.nonce ?? 0;
  useEffect(() => {
    if (seedServer === null) return;
    setServer(seedServer);
    setTool(seedTool ?? EVERY_TOOL);
  }, [seedServer, seedTool, seedNonce]);

  const rule = server === null ? null : mcpRule(server, tool === EVERY_TOOL ? null : tool);
  useEffect(() => onRule(rule), [rule, onRule]);

  const list = servers ?? [];
  const shown =
    server !== null && !list.some((s) => s.name === server) ? [{ name: server, note: null, tools: [] }, ...list] : list;
  const current = shown.find((s) => s.name === server) ?? null;
  const tools = current ? [...current.tools] : [];
  if (tool !== EVERY_TOOL && !tools.includes(tool)) tools.unshift(tool);

  return (
    <div className="builder-mcp">
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {servers !== null && shown.length === 0 ? (
        <p className="muted">
          This project has no MCP servers: add one on the MCP servers page (or in settings), then make its rules here.
        </p>
      ) : null}
      {shown.length > 0 ? (
        <ChoiceRadios
          legend="MCP server"
          value={server}
          onChange={(s) => {
            setServer(s);
            setTool(EVERY_TOOL);
          }}
          testId="builder-mcp-servers"
        >
          {shown.map((s) => (
            <Choice key={s.name} value={s.name} {...(s.note ? { hint: s.note } : {})}>
              <Shown text={s.name} strict lines="inline" as="code" />
            </Choice>
          ))}
        </ChoiceRadios>
      ) : null}
      {current ? (
        <ChoiceRadios legend="Tool" value={tool} onChange={setTool} testId="builder-mcp-tools">
          <Choice value={EVERY_TOOL} hint="its tools now and any it adds later">
            Every tool of this server
          </Choice>
          {tools.map((t) => (
            <Choice key={t} value={t}>
              <Shown text={t} strict lines="inline" as="code" />
            </Choice>
          ))}
        </ChoiceRadios>
      ) : null}
      {current && current.tools.length === 0 ? (
        <p className="muted">
          No tools of this server are known yet: test it on the MCP servers page, or let the agent use it once.
        </p>
      ) : null}
    </div>
  );
}
