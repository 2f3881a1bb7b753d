import type { McpServerView } from '../../../shared/mcp-view-contract';
import { Shown, shownText } from '../display/Shown';

const SOURCE_LABELS: Record<McpServerView['source'], string> = {
  policy: 'policy',
  user: 'your settings',
  project: 'project settings',
  local: 'local settings',
  'mcp.json': '.mcp.json',
};

type Tone = 'ok' | 'warn' | 'bad' | 'muted';

/**
 * The state badge: whether the server loads and, when it does, how it last went: its last test or the last prompt,
 * whichever came later. "loads" never sits beside a test that "did not start".
 */
export function serverState(server: McpServerView): {
  text: string;
  tone: Tone;
  detail: string | null;
  error: string | null;
} {
  if (!server.active) return { text: 'does not load', tone: 'muted', detail: server.inactiveReason, error: null };
  const test = server.lastTest;
  const testIsLater =
    test !== null && (server.lastRun === null || server.lastRunAt === null || test.at >= server.lastRunAt);
  if (test && testIsLater) {
    if (test.state === 'ready')
      return {
        text: 'connected',
        tone: 'ok',
        detail: `last test: ${test.tools} tool${test.tools === 1 ? '' : 's'}`,
        error: null,
      };
    return { text: 'did not start', tone: 'bad', detail: 'last test', error: test.error };
  }
  const run = server.lastRun;
  if (run) {
    const last = run.errors.filter((e) => !run.skipped.some((s) => s.reason === e)).at(-1) ?? null;
    if (run.state === 'ready')
      return {
        text: 'connected',
        tone: 'ok',
        detail: `last prompt: ${run.tools.length} tool${run.tools.length === 1 ? '' : 's'}`,
        error: last,
      };
    return {
      text: run.state === 'failed' ? 'did not start' : run.state,
      tone: run.state === 'failed' ? 'bad' : 'warn',
      detail: `last prompt: ${run.state}`,
      error: last,
    };
  }
  return { text: 'loads', tone: 'ok', detail: 'not tested yet', error: null };
}

function StateCell({ server }: { server: McpServerView }) {
  const state = serverState(server);
  return (
    <>
      <span className={`badge badge-${state.tone}`} data-testid="mcp-state" data-tone={state.tone}>
        <Shown text={state.text} lines="inline" />
      </span>{' '}
      {state.detail ? (
        <Shown
          className="mcp-detail muted"
          text={state.detail}
          data-testid={server.active ? 'mcp-last-run' : undefined}
        />
      ) : null}
      {state.error ? <Shown className="mcp-detail error" text={state.error} data-testid="mcp-state-error" /> : null}
    </>
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
  onEdit(server: McpServerView): void;
  onRemove(server: McpServerView): void;
}

/**
 * Every MCP server of the open project: name, source (and file), command line or URL, whether it loads (and why
 * not), and the actions: Test (a loading server), Approve (a project server waiting for you), Revoke approval.
 */
export function McpServersTable({
  servers,
  testing,
  onApprove,
  onRevoke,
  onSetEnabled,
  onTest,
  onEdit,
  onRemove,
}: McpServersTableProps) {
  return (
    <div className="mcp-table-wrap reflow">
      <table className="mcp-table reflow-table">
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
              <td data-label="Server">
                <Shown text={s.name} strict lines="inline" as="code" />
                <span className="muted"> {s.transport === 'http' ? 'http' : 'stdio'}</span>
              </td>
              <td data-label="Source" title={shownText(s.file, { strict: true })}>
                <Shown text={SOURCE_LABELS[s.source]} lines="inline" />
                {s.readOnlyReason ? <Shown className="mcp-detail muted" text={s.readOnlyReason} strict /> : null}
              </td>
              <td data-label="Command or URL" className="mcp-shown reflow-long">
                <Shown text={s.shown} strict as="code" />
              </td>
              <td data-label="State">
                <StateCell server={s} />
              </td>
              <td data-label="Actions" className="mcp-actions">
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
                {s.editableScope ? (
                  <>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={shownText(`Edit MCP server ${s.name}`, { strict: true })}
                      onClick={() => onEdit(s)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={shownText(`Remove MCP server ${s.name}`, { strict: true })}
                      onClick={() => onRemove(s)}
                    >
                      Remove
                    </button>
                  </>
                ) : null}
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
