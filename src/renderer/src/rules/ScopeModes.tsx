import { useId, useState } from 'react';
import { PermissionModeSchema } from '../../../shared/permission';
import type { PermissionMode } from '../../../shared/permission';
import { EditableScopeSchema } from '../../../shared/rules-contract';
import type { EditableScope, RulesList } from '../../../shared/rules-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { BypassConfirmDialog } from '../modes/BypassConfirmDialog';
import { PERMISSION_MODE_HINTS, PERMISSION_MODE_LABELS } from '../modes/mode-labels';
import { Shown } from '../display/Shown';

const SCOPE_NAMES: Record<EditableScope, string> = { user: 'User', project: 'Project', local: 'Local' };
const NOT_SET = '';
/** Modes an untrusted project's own files cannot set: they let calls through without the person. */
const TRUST_ONLY: ReadonlySet<PermissionMode> = new Set(['bypassPermissions', 'auto']);

/** One default permission mode per scope file. Bypass needs a confirmation; main refuses it for an untrusted project's own files. */
export function ScopeModes({ list, onChanged }: { list: RulesList; onChanged(): void }) {
  const api = useApi();
  const [confirming, setConfirming] = useState<EditableScope | null>(null);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const baseId = useId();

  const apply = (scope: EditableScope, mode: PermissionMode | null) => {
    api.setScopeMode({ scope, mode }).then(
      (r) => {
        setStatus({
          text: r.changed
            ? `${mode ? `Default mode ${mode}` : 'No default mode'} in ${r.file}`
            : `${r.file} already says so`,
          error: false,
        });
        onChanged();
      },
      (err: unknown) => setStatus({ text: errorMessage(err), error: true }),
    );
  };

  const choose = (scope: EditableScope, value: string) => {
    const mode = value === NOT_SET ? null : PermissionModeSchema.parse(value);
    if (mode === 'bypassPermissions') setConfirming(scope);
    else apply(scope, mode);
  };

  return (
    <section className="rules-group" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>Default permission mode</h3>
      <p className="muted">
        In force now:{' '}
        <strong>
          <Shown
            data-testid="rules-mode-in-force"
            text={list.mode ? `${list.mode.mode} (from ${list.mode.file})` : 'default (built-in)'}
            lines="inline"
          />
        </strong>
        . The local file beats the project file, which beats the user file; a chat session can choose its own.
      </p>
      <div className="rules-settings">
        {EditableScopeSchema.options.map((scope) => {
          const id = `${baseId}-${scope}`;
          const bypassRefused = scope !== 'user' && !list.trusted;
          const current = list.scopeModes[scope];
          return (
            <div key={scope} className="rules-field">
              <label htmlFor={id}>{SCOPE_NAMES[scope]} default mode</label>
              <select
                id={id}
                value={current ?? NOT_SET}
                aria-describedby={`${id}-file`}
                onChange={(e) => choose(scope, e.target.value)}
              >
                <option value={NOT_SET}>not set</option>
                {PermissionModeSchema.options.map((m) => (
                  <option
                    key={m}
                    value={m}
                    disabled={TRUST_ONLY.has(m) && bypassRefused && current !== m}
                    title={PERMISSION_MODE_HINTS[m]}
                  >
                    {PERMISSION_MODE_LABELS[m]}
                    {TRUST_ONLY.has(m) && bypassRefused ? ' (unavailable: project not trusted)' : ''}
                  </option>
                ))}
              </select>
              <span id={`${id}-file`} className="muted rules-file-note">
                <Shown text={list.scopeFiles[scope]} strict lines="inline" />
              </span>
            </div>
          );
        })}
      </div>
      {!list.trusted ? (
        <p className="muted">This project is not trusted: its own files cannot make bypass the default.</p>
      ) : null}
      {status ? (
        <p className={status.error ? 'error' : 'muted'} role={status.error ? 'alert' : 'status'}>
          <Shown text={status.text} />
        </p>
      ) : null}
      {confirming ? (
        <BypassConfirmDialog
          scope={
            confirming === 'user'
              ? `every project you open (user settings: ${list.scopeFiles.user})`
              : `this project (${list.scopeFiles[confirming]})`
          }
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const scope = confirming;
            setConfirming(null);
            apply(scope, 'bypassPermissions');
          }}
        />
      ) : null}
    </section>
  );
}
