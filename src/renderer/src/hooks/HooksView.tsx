import { useState } from 'react';
import type { ApiResponse } from '../../../shared/api';
import type { EditableHookScope, HookListEntry, HookScope } from '../../../shared/hooks-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { useApiResource } from '../api/use-api-resource';
import { ConfirmDialog } from '../app/ConfirmDialog';
import { showView } from '../app/view-store';
import { Shown } from '../display/Shown';
import { HookDialog } from './HookDialog';
import { HooksTable } from './HooksTable';

import './hooks.css';

/** An editable hook: Gatehouse's own user, project or local file, a command hook. */
type EditableHook = HookListEntry & { scope: EditableHookScope; command: string };
function asEditable(h: HookListEntry): EditableHook | null {
  if (!h.editable || h.command === null || h.scope === 'policy') return null;
  return { ...h, scope: h.scope, command: h.command };
}

type HookList = ApiResponse<'listHooks'>;

/** The scopes in the order the engine reads them (policy first), with what a person should know about each. */
const SCOPES: readonly { scope: HookScope; title: string; about: string }[] = [
  { scope: 'policy', title: 'Policy', about: 'Managed by your organisation; run as you.' },
  {
    scope: 'user',
    title: 'User',
    about: "Your own settings (Gatehouse's settings.yaml and ~/.claude/settings.json); run as you in every project.",
  },
  {
    scope: 'project',
    title: 'Project',
    about:
      "The project's shared settings (.gatehouse/settings.yaml, .claude/settings.json); run inside the OS sandbox, only while the folder's trust enables hooks.",
  },
  {
    scope: 'local',
    title: 'Local',
    about:
      'Your personal settings for this project (.gatehouse/settings.local.yaml, .claude/settings.local.json); run like project hooks.',
  },
];

/** Why the project's own hooks do not run, in one sentence, or null when they do (or there are none). */
function projectHooksNote(list: HookList): string | null {
  const projectHooks = list.hooks.filter((h) => h.scope === 'project' || h.scope === 'local');
  if (projectHooks.length === 0) return null;
  const one = projectHooks.length === 1;
  const hooks = one ? 'its project hook does not run' : `its ${projectHooks.length} project hooks do not run`;
  if (!list.trusted) return `This folder is not trusted: ${hooks} until you trust it.`;
  if (!list.hooksEnabled)
    return `This folder's trust does not enable hooks: ${hooks}. Switch "Hooks" on in Trusted folders to run ${one ? 'it' : 'them'}.`;
  return null;
}

function ScopeSection({
  heading,
  about,
  hooks,
  onEdit,
  onDelete,
}: {
  heading: string;
  about: string;
  hooks: HookListEntry[];
  onEdit(h: HookListEntry): void;
  onDelete(h: HookListEntry): void;
}) {
  const id = `hooks-scope-${heading.toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="hooks-scope">
      <h3 id={id}>
        <Shown text={heading} lines="inline" />
      </h3>
      <p className="panel-note hooks-scope-about">
        <Shown text={about} />
      </p>
      {hooks.length ? (
        <HooksTable hooks={hooks} caption={`${heading} hooks`} onEdit={onEdit} onDelete={onDelete} />
      ) : (
        <p className="muted">
          <Shown text={`No ${heading.toLowerCase()} hooks.`} />
        </p>
      )}
    </section>
  );
}

/**
 * The Hooks page: every hook the settings configure for the open project, per scope, with its event, matcher,
 * command and whether it runs (and why not). Hooks of Gatehouse's own files are added, edited and deleted here
 * (delete asks first); Claude Code's files and policy are read only, with the reason.
 */
export function HooksView() {
  const api = useApi();
  // Settings files edited elsewhere show when the person comes back to the window.
  const {
    data: list,
    error,
    setError,
    reload: load,
  } = useApiResource((a) => a.listHooks({}), {
    failure: 'Could not read the hooks',
    reloadOn: ['projectChanged', 'trustChanged', 'settingsChanged'],
  });
  /** The open dialog: adding, or editing one hook. */
  const [dialog, setDialog] = useState<{ editing?: EditableHook } | null>(null);
  /** The hook whose Delete was pressed: deleted only once the person confirms. */
  const [deleting, setDeleting] = useState<EditableHook | null>(null);
  const [status, setStatus] = useState('');

  const remove = (h: EditableHook) => {
    setDeleting(null);
    api.removeHook({ scope: h.scope, hook: { event: h.event, matcher: h.matcher, command: h.command } }).then(
      (r) => {
        setStatus(`Deleted the ${h.event} hook from ${r.file}.`);
        load();
      },
      (err: unknown) => setError(`Could not delete the hook: ${errorMessage(err)}`),
    );
  };
  const edit = (h: HookListEntry) => {
    const e = asEditable(h);
    if (e) setDialog({ editing: e });
  };
  const askDelete = (h: HookListEntry) => setDeleting(asEditable(h));

  const note = list ? projectHooksNote(list) : null;
  const scopes = SCOPES.filter((s) => s.scope !== 'policy' || list?.hooks.some((h) => h.scope === 'policy'));
  return (
    <section className="panel hooks-view" aria-labelledby="hooks-title">
      <div className="panel-head">
        <h2 id="hooks-title">Hooks</h2>
        <span className="panel-head-actions">
          {list?.scopeFiles ? (
            <button type="button" className="primary" onClick={() => setDialog({})}>
              Add hook
            </button>
          ) : null}
          <button type="button" className="secondary" onClick={load}>
            Refresh
          </button>
        </span>
      </div>
      <p className="panel-note">
        Commands your settings run at points of the agent&apos;s work (before and after a tool call, when a prompt is
        sent, when a session starts or stops), in Claude Code&apos;s format. A PreToolUse hook can deny a call or make
        it ask, never loosen a deny rule or a hard check. Hooks of Gatehouse&apos;s own settings are added and edited
        here; Claude Code&apos;s files are read only.
      </p>
      <p className="visually-hidden" role="status" data-testid="hooks-status">
        <Shown text={status} />
      </p>
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {list && !list.project ? <p className="muted">Open a project to see the hooks that run in it.</p> : null}
      {note ? (
        <p className="hooks-trust-note" role="note" data-testid="hooks-trust-note">
          <Shown text={note} />{' '}
          <button type="button" className="link" onClick={() => showView('trust')}>
            Open Trusted folders
          </button>
        </p>
      ) : null}
      {(list ? list.fileErrors : []).map((e) => (
        <p key={e.file} className="error">
          <Shown text={`${e.file} could not be read (${e.reason}): its hooks are not known.`} />
        </p>
      ))}
      {list && list.project && list.hooks.length === 0 ? (
        <div className="hooks-empty">
          <p>
            No hooks are configured for this project. Add one with &quot;Add hook&quot;, or put a block like this in
            .gatehouse/settings.yaml (shared with the project), .gatehouse/settings.local.yaml (only you, this project)
            or your user settings.yaml (every project):
          </p>
          <pre>
            <code>
              {
                'hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh'
              }
            </code>
          </pre>
          <p className="muted">
            Claude Code&apos;s hooks in .claude/settings.json and ~/.claude/settings.json are read as well.
          </p>
        </div>
      ) : null}
      {list && list.project && list.hooks.length > 0
        ? scopes.map((s) => (
            <ScopeSection
              key={s.scope}
              heading={s.title}
              about={s.about}
              hooks={list.hooks.filter((h) => h.scope === s.scope)}
              onEdit={edit}
              onDelete={askDelete}
            />
          ))
        : null}
      {!list && !error ? <p className="muted">Reading the hooks…</p> : null}
      {dialog && list?.scopeFiles ? (
        <HookDialog
          {...(dialog.editing ? { editing: dialog.editing } : {})}
          scopeFiles={list.scopeFiles}
          onDone={(saved) => {
            setDialog(null);
            if (saved) {
              setStatus(dialog.editing ? 'Hook saved.' : 'Hook added.');
              load();
            }
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          heading={`Delete this ${deleting.event} hook?`}
          actions={[{ label: 'Delete hook', danger: true, onClick: () => remove(deleting) }]}
          onCancel={() => setDeleting(null)}
        >
          <p>
            <Shown text={deleting.command} strict lines="inline" as="code" />
          </p>
          <p className="muted">
            <Shown text={`It is removed from ${deleting.file}.`} strict />
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
