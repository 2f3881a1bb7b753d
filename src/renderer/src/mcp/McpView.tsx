import { useState } from 'react';
import type { ApiResponse } from '../../../shared/api';
import type { McpServerView, McpTestView } from '../../../shared/mcp-view-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { useApiResource } from '../api/use-api-resource';
import { ConfirmDialog } from '../app/ConfirmDialog';
import { showView } from '../app/view-store';
import { Shown } from '../display/Shown';
import { McpServerDialog } from './McpServerDialog';
import { McpServersTable } from './McpServersTable';
import { McpTestResult } from './McpTestResult';

import './mcp.css';

type McpList = ApiResponse<'listMcpServers'>;

/** Why the project's servers do not load, in one sentence, or null. */
function projectNote(list: McpList): string | null {
  const own = list.servers.filter((s) => s.source !== 'user' && s.source !== 'policy');
  if (own.length === 0) return null;
  if (!list.trusted) return 'This folder is not trusted: its MCP servers do not start until you trust it.';
  if (!list.mcpEnabled)
    return 'This folder\'s trust does not enable its MCP servers. Switch "MCP servers" on in Trusted folders.';
  return null;
}

/**
 * The MCP page: every MCP server configured for the open project (yours and the project's), where it comes from,
 * its command line or URL, whether it loads and why not. A project server starts only once you approve it (as it
 * is configured now); Revoke approval stops it from the next prompt on. Test starts a server as a run would and
 * lists its tools with the category the permission engine gives them; its badge then says how that test went. Add
 * server, Edit and Remove write your own settings (the writer of `gatehouse mcp add|remove`, checked in main).
 */
export function McpView() {
  const api = useApi();
  const {
    data: list,
    error,
    setError,
    reload: load,
  } = useApiResource((a) => a.listMcpServers({}), {
    failure: 'Could not read the MCP servers',
    reloadOn: ['projectChanged', 'trustChanged', 'settingsChanged'],
  });
  const [status, setStatus] = useState('');
  const [approving, setApproving] = useState<McpServerView | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [tested, setTested] = useState<McpTestView | null>(null);
  /** The add/edit dialog: a new server (`'new'`) or the one being edited. */
  const [editing, setEditing] = useState<McpServerView | 'new' | null>(null);
  const [removing, setRemoving] = useState<McpServerView | null>(null);

  const approve = (s: McpServerView) => {
    setApproving(null);
    api.approveMcpServer({ name: s.name }).then(
      () => {
        setStatus(`Approved ${s.name}: it starts with the next prompt.`);
        load();
      },
      (err: unknown) => setError(`Could not approve ${s.name}: ${errorMessage(err)}`),
    );
  };
  const setEnabled = (s: McpServerView, enabled: boolean) => {
    api.setMcpServerEnabled({ name: s.name, enabled }).then(
      () => {
        setStatus(enabled ? `Switched ${s.name} back on in this project.` : `Switched ${s.name} off in this project.`);
        load();
      },
      (err: unknown) => setError(`Could not switch ${s.name} ${enabled ? 'on' : 'off'}: ${errorMessage(err)}`),
    );
  };
  const revoke = (s: McpServerView) => {
    api.revokeMcpServer({ name: s.name }).then(
      () => {
        setStatus(`Revoked the approval of ${s.name}: it no longer starts here.`);
        load();
      },
      (err: unknown) => setError(`Could not revoke ${s.name}: ${errorMessage(err)}`),
    );
  };
  const test = (s: McpServerView) => {
    setTesting(s.name);
    setTested(null);
    setStatus(`Testing ${s.name}…`);
    api
      .testMcpServer({ name: s.name })
      .then(
        (r) => {
          setTested(r);
          setStatus(
            `${s.name}: ${r.status.state === 'ready' ? `connected, ${r.tools.length} tools` : 'did not start'}.`,
          );
        },
        (err: unknown) => setError(`Could not test ${s.name}: ${errorMessage(err)}`),
      )
      .finally(() => {
        setTesting(null);
        // Its badge follows the test.
        load();
      });
  };
  const remove = (s: McpServerView) => {
    setRemoving(null);
    if (!s.editableScope) return;
    api.removeMcpServer({ name: s.name, scope: s.editableScope }).then(
      (r) => {
        setStatus(`Removed ${s.name} from ${r.file}.`);
        if (tested?.name === s.name) setTested(null);
        load();
      },
      (err: unknown) => setError(`Could not remove ${s.name}: ${errorMessage(err)}`),
    );
  };
  const saved = (done: { name: string; file: string } | null) => {
    setEditing(null);
    if (done === null) return;
    setError(null);
    setStatus(`Saved ${done.name} in ${done.file}.`);
    load();
  };

  const note = list ? projectNote(list) : null;
  return (
    <section className="panel mcp-view" aria-labelledby="mcp-title">
      <div className="panel-head">
        <h2 id="mcp-title">MCP servers</h2>
        <span className="panel-head-actions">
          {list?.scopeFiles ? (
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              Add server
            </button>
          ) : null}
          <button type="button" className="secondary" onClick={load}>
            Refresh
          </button>
        </span>
      </div>
      <p className="panel-note">
        MCP servers add tools for the agent (named mcp__server__tool). Every call goes through your rules like any
        other; a server&apos;s own description of a tool never changes a decision. Yours (your settings) always load; a
        project&apos;s only in a trusted folder, after you approve it. stdio servers run inside the OS sandbox.
      </p>
      <p className="visually-hidden" role="status" data-testid="mcp-status">
        <Shown text={status} />
      </p>
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {list && !list.project ? <p className="muted">Open a project to see the MCP servers that load in it.</p> : null}
      {note ? (
        <p className="hooks-trust-note" role="note">
          <Shown text={note} />{' '}
          <button type="button" className="link" onClick={() => showView('trust')}>
            Open Trusted folders
          </button>
        </p>
      ) : null}
      {(list?.problems ?? []).map((p) => (
        <p key={p} className="error">
          <Shown text={`Not loaded: ${p}`} />
        </p>
      ))}
      {list && list.project && list.servers.length === 0 ? (
        <div className="hooks-empty">
          <p>
            No MCP servers are configured for this project. Add one with Add server (or gatehouse mcp add), or put a
            block like this in your user settings.yaml (every project), or a project&apos;s .mcp.json:
          </p>
          <pre>
            <code>
              {
                'mcpServers:\n  github:\n    command: npx\n    args: [-y, some-mcp-server]\n    allowedDomains: [api.github.com]'
              }
            </code>
          </pre>
        </div>
      ) : null}
      {list && list.servers.length > 0 ? (
        <McpServersTable
          servers={list.servers}
          testing={testing}
          onApprove={setApproving}
          onRevoke={revoke}
          onSetEnabled={setEnabled}
          onTest={test}
          onEdit={setEditing}
          onRemove={setRemoving}
        />
      ) : null}
      {tested ? <McpTestResult result={tested} /> : null}
      {!list && !error ? <p className="muted">Reading the MCP servers…</p> : null}
      {editing !== null && list?.scopeFiles ? (
        <McpServerDialog
          {...(editing !== 'new' && editing.editableScope && editing.entry
            ? { editing: { name: editing.name, scope: editing.editableScope, entry: editing.entry } }
            : {})}
          scopeFiles={list.scopeFiles}
          onDone={saved}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          heading={`Remove the MCP server ${removing.name}?`}
          actions={[{ label: 'Remove', danger: true, onClick: () => remove(removing) }]}
          onCancel={() => setRemoving(null)}
        >
          <p>
            <Shown text={`It is taken out of ${removing.file}; it no longer starts from the next prompt.`} strict />
          </p>
        </ConfirmDialog>
      ) : null}
      {approving ? (
        <ConfirmDialog
          heading={`Approve the MCP server ${approving.name}?`}
          actions={[{ label: 'Approve', onClick: () => approve(approving) }]}
          onCancel={() => setApproving(null)}
        >
          <p>It starts with every prompt in this project (inside the OS sandbox for a command), as configured now:</p>
          <p>
            <Shown text={approving.shown} strict as="code" />
          </p>
          <p className="muted">
            <Shown text={`From ${approving.file}. A changed entry must be approved again.`} strict />
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
