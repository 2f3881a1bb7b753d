import type { McpServerView } from '../../../shared/mcp-view-contract';
import { Shown, shownText } from '../display';

const SOURCE_LABELS: Record<McpServerView['source'], string> = {
  policy: 'policy',
  user: 'your settings',
  project: 'project settings',
  local: 'local settings',
  'mcp.json': '.mcp.json',
};

/** How the last prompt found a server: its tools, or its state and last error. */
function LastRun({ server }: { server: McpServerView }) {
  const run = server.lastRun;
  if (!run) return null;
  const last = run.errors.filter((e) => !run.skipped.some((s) => s.reason === e)).at(-1);
  const what =
    run.state === 'ready'
      ? `last prompt: ${run.tools.length} tool${run.tools.length === 1 ? '' : 's'}`
      : `last prompt: ${run.state}`;
  return (
    <span className="mcp-last-run" data-testid="mcp-last-run">
      <Shown className="muted" text={what} lines="inline" />
      {last ? <Shown className="error" text={last} /> : null}
    </span>
  );
}

export interface McpServersTableProps {
  servers: readonly McpServerView[];
  /** The server being tested (its Test button says so). */
  testing: string | null;
  onApprove(server: McpServerView): void;
  onRevoke(server: McpServerView): void;
  /** Switches the server on (true) or off (false) in this project. */
  onSetEnabled(server: McpServerView, enabled: boolean): void;
  onTest(server: McpServerView): void;
}

/**
 * Every MCP server of the open project: name, source (and file), command line or URL, whether it loads (and why
 * not), and the actions: Test (a loading server), Approve (a project server waiting for you), Revoke approval.
 */
export function McpServersTable({ servers, testing, onApprove, onRevoke, onSetEnabled, onTest }: McpServersTableProps) {
  return (
    <div className="mcp-table-wrap">
      <table className="mcp-table">
        <caption className="visually-hidden">MCP servers</caption>
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">Source</th>
            <th scope="col">Command or URL</th>
            <th scope="col">State</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((s) => (
            <tr key={`${s.source}|${s.name}`} data-testid="mcp-row" data-server={s.name} data-active={s.active}>
              <td>
                <Shown text={s.name} strict lines="inline" as="code" />
                <span className="muted"> {s.transport === 'http' ? 'http' : 'stdio'}</span>
              </td>
              <td title={shownText(s.file, { strict: true })}>
                <Shown text={SOURCE_LABELS[s.source]} lines="inline" />
              </td>
              <td className="mcp-shown">
                <Shown text={s.shown} strict as="code" />
              </td>
              <td>
                {s.active ? (
                  <>
                    <span className="badge badge-ok">loads</span> <LastRun server={s} />
                  </>
                ) : (
                  <>
                    <span className="badge badge-muted">does not load</span>{' '}
                    <Shown className="muted" text={s.inactiveReason ?? ''} />
                  </>
                )}
              </td>
              <td className="mcp-actions">
                {s.active ? (
                  <button
                    type="button"
                    className="secondary"
                    disabled={testing !== null}
                    aria-label={shownText(`Test MCP server ${s.name}`, { strict: true })}
                    onClick={() => onTest(s)}
                  >
                    {testing === s.name ? 'Testing…' : 'Test'}
                  </button>
                ) : null}
                {s.needsApproval ? (
                  <button
                    type="button"
                    className="primary"
                    aria-label={shownText(`Approve MCP server ${s.name}`, { strict: true })}
                    onClick={() => onApprove(s)}
                  >
                    Approve
                  </button>
                ) : null}
                <button
                  type="button"
                  className="secondary"
                  aria-label={shownText(`${s.disabled ? 'Enable' : 'Disable'} MCP server ${s.name} in this project`, {
                    strict: true,
                  })}
                  onClick={() => onSetEnabled(s, s.disabled)}
                >
                  {s.disabled ? 'Enable' : 'Disable'}
                </button>
                {s.approved ? (
                  <button
                    type="button"
                    className="danger"
                    aria-label={shownText(`Revoke approval of MCP server ${s.name}`, { strict: true })}
                    onClick={() => onRevoke(s)}
                  >
                    Revoke approval
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
