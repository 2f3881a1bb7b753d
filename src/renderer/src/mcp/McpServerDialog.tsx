import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { McpServerEntry } from '../../../shared/mcp-contract';
import { McpScopeSchema, type McpScope } from '../../../shared/mcp-view-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { ModalDialog } from '../app/ModalDialog';
import { Shown } from '../display/Shown';
import { entryFromForm, formFromEntry, type McpForm } from './mcp-form';

const SCOPE_ABOUT: Record<McpScope, { label: string; about: string }> = {
  local: { label: 'Local', about: 'only you, this project; kept out of git' },
  project: { label: 'Project', about: 'shared with everyone who uses this project (committed); each approves it' },
  user: { label: 'User', about: 'yours, in every project you open; starts without asking' },
};

export interface McpServerDialogProps {
  /** The server being edited; absent: a new one. */
  editing?: { name: string; scope: McpScope; entry: McpServerEntry };
  scopeFiles: Record<McpScope, string>;
  /** `saved`: the name and the file it was written to; null: cancelled. */
  onDone(saved: { name: string; file: string } | null): void;
}

/**
 * Adds or edits one MCP server of Gatehouse's own settings (the writer of `gatehouse mcp add`, checked again in
 * main): its name, the scope it is written to (each explained in one line), and either a command with its arguments
 * (started without a shell, inside the OS sandbox) or an http URL. Enter saves, Escape cancels.
 */
export function McpServerDialog({ editing, scopeFiles, onDone }: McpServerDialogProps) {
  const api = useApi();
  const titleId = useId();
  const id = useId();
  const first = useRef<HTMLInputElement>(null);
  const [form, setForm] = useState<McpForm>(() => formFromEntry(editing?.name ?? '', editing?.entry ?? null));
  const [scope, setScope] = useState<McpScope>(editing?.scope ?? 'local');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (change: Partial<McpForm>): void => setForm((f) => ({ ...f, ...change }));
  const built = entryFromForm(form, editing?.entry ?? null);

  const save = async (): Promise<void> => {
    if (!built.ok) return setError(built.error);
    setSaving(true);
    setError(null);
    try {
      const to = { name: form.name.trim(), scope, entry: built.entry };
      const r = editing
        ? await api.updateMcpServer({ from: { name: editing.name, scope: editing.scope }, to })
        : await api.addMcpServer(to);
      onDone({ name: to.name, file: r.file });
    } catch (err) {
      setSaving(false);
      setError(errorMessage(err));
    }
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (!saving) void save();
  };
  const ids = {
    name: `${id}-name`,
    command: `${id}-command`,
    args: `${id}-args`,
    env: `${id}-env`,
    envAllow: `${id}-env-allow`,
    domains: `${id}-domains`,
    url: `${id}-url`,
    headers: `${id}-headers`,
  };

  return (
    <ModalDialog className="mcp-dialog" titleId={titleId} initialFocus={first} onCancel={() => onDone(null)}>
      <h2 id={titleId}>{editing ? 'Edit MCP server' : 'Add an MCP server'}</h2>
      <form className="mcp-form" onSubmit={submit} aria-labelledby={titleId} noValidate>
        <div className="mcp-field">
          <label htmlFor={ids.name}>Name</label>
          <input
            id={ids.name}
            ref={first}
            type="text"
            value={form.name}
            required
            spellCheck={false}
            autoComplete="off"
            placeholder="github"
            aria-describedby={`${id}-name-hint`}
            onChange={(e) => set({ name: e.target.value })}
          />
          <p id={`${id}-name-hint`} className="mcp-hint muted">
            Letters, digits, - and _; its tools are named mcp__name__tool.
          </p>
        </div>
        <fieldset className="mcp-field mcp-scopes">
          <legend>Where it is written</legend>
          {McpScopeSchema.options.map((s) => (
            <div key={s} className="mcp-scope">
              <input
                id={`${id}-scope-${s}`}
                type="radio"
                name={`${id}-scope`}
                value={s}
                checked={scope === s}
                aria-describedby={`${id}-scope-${s}-about`}
                onChange={() => setScope(s)}
              />{' '}
              <label htmlFor={`${id}-scope-${s}`}>
                <Shown text={SCOPE_ABOUT[s].label} lines="inline" />
              </label>
              <Shown
                id={`${id}-scope-${s}-about`}
                className="mcp-hint muted"
                text={`: ${SCOPE_ABOUT[s].about} (${scopeFiles[s]})`}
                lines="inline"
              />
            </div>
          ))}
        </fieldset>
        <fieldset className="mcp-field mcp-transport">
          <legend>How it runs</legend>
          {(['stdio', 'http'] as const).map((t) => (
            <span key={t}>
              <input
                id={`${id}-transport-${t}`}
                type="radio"
                name={`${id}-transport`}
                value={t}
                checked={form.transport === t}
                onChange={() => set({ transport: t })}
              />{' '}
              <label htmlFor={`${id}-transport-${t}`}>
                {t === 'stdio' ? 'A command (in the OS sandbox)' : 'An http URL'}
              </label>{' '}
            </span>
          ))}
        </fieldset>
        {form.transport === 'stdio' ? (
          <>
            <div className="mcp-field">
              <label htmlFor={ids.command}>Command</label>
              <input
                id={ids.command}
                type="text"
                value={form.command}
                spellCheck={false}
                autoComplete="off"
                placeholder="npx"
                aria-describedby={`${id}-command-hint`}
                onChange={(e) => set({ command: e.target.value })}
              />
              <p id={`${id}-command-hint`} className="mcp-hint muted">
                The program alone, started without a shell; its arguments go below.
              </p>
            </div>
            <div className="mcp-field">
              <label htmlFor={ids.args}>Arguments, one per line</label>
              <textarea
                id={ids.args}
                rows={3}
                value={form.args}
                spellCheck={false}
                placeholder={'-y\nsome-mcp-server'}
                onChange={(e) => set({ args: e.target.value })}
              />
            </div>
            <div className="mcp-field">
              <label htmlFor={ids.env}>Environment variables it gets, NAME=value per line</label>
              <textarea
                id={ids.env}
                rows={2}
                value={form.env}
                spellCheck={false}
                onChange={(e) => set({ env: e.target.value })}
              />
            </div>
            <div className="mcp-field">
              <label htmlFor={ids.envAllow}>Variables of your environment passed on (names)</label>
              <input
                id={ids.envAllow}
                type="text"
                value={form.envAllow}
                spellCheck={false}
                autoComplete="off"
                placeholder="GITHUB_TOKEN"
                onChange={(e) => set({ envAllow: e.target.value })}
              />
            </div>
            <div className="mcp-field">
              <label htmlFor={ids.domains}>Hosts it may reach (none by default)</label>
              <input
                id={ids.domains}
                type="text"
                value={form.domains}
                spellCheck={false}
                autoComplete="off"
                placeholder="api.github.com"
                onChange={(e) => set({ domains: e.target.value })}
              />
            </div>
          </>
        ) : (
          <>
            <div className="mcp-field">
              <label htmlFor={ids.url}>URL</label>
              <input
                id={ids.url}
                type="url"
                value={form.url}
                spellCheck={false}
                autoComplete="off"
                placeholder="https://mcp.example.com/mcp"
                onChange={(e) => set({ url: e.target.value })}
              />
            </div>
            <div className="mcp-field">
              <label htmlFor={ids.headers}>Headers, Name: value per line</label>
              <textarea
                id={ids.headers}
                rows={2}
                value={form.headers}
                spellCheck={false}
                onChange={(e) => set({ headers: e.target.value })}
              />
            </div>
          </>
        )}
        {scope !== 'user' ? (
          <p className="mcp-hint muted">
            Saving it here approves it for this project as written; it loads once the project is trusted.
          </p>
        ) : null}
        {error ? (
          <p className="error" role="alert" data-testid="mcp-form-error">
            <Shown text={error} />
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="submit" className="primary" disabled={saving}>
            {editing ? 'Save server' : 'Add server'}
          </button>
          <button type="button" className="secondary" onClick={() => onDone(null)}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
