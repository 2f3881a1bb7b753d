import { useCallback, useEffect, useState } from 'react';
import type { EditableScope, RuleEntry, RulesList } from '../../../shared/rules-contract';
import { errorMessage } from '../api/errors';
import { useApi, useApiEvent } from '../api/context';
import { refreshPermissionMode } from '../modes/mode-store';
import { ConfirmDialog } from '../app/ConfirmDialog';
import { AddRuleForm } from './AddRuleForm';
import { AdditionalDirectories } from './AdditionalDirectories';
import { CallSimulator } from './CallSimulator';
import { RuleBuilder } from './builder/RuleBuilder';
import { RuleGroups } from './RuleGroups';
import { ScopeModes } from './ScopeModes';
import './rules.css';
import { Shown } from '../display/Shown';

function isEditableScope(scope: string): scope is EditableScope {
  return scope === 'user' || scope === 'project' || scope === 'local';
}

/**
 * The "Rules" view: every rule by scope, settings files that failed to load, the rule builder (pointing) and the text
 * form (typing), delete, and the simulator.
 */
export function RulesView() {
  const api = useApi();
  const [list, setList] = useState<RulesList | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(() => {
    api.listRules({}).then(
      (l) => {
        setList(l);
        setError(null);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [api]);

  useEffect(refresh, [refresh]);
  /** After a settings edit: the rules, and the chat's mode in force (a scope's default mode may have changed). */
  const changed = useCallback(() => {
    refresh();
    void refreshPermissionMode(api);
  }, [api, refresh]);
  useApiEvent((event) => {
    if (event.type === 'projectChanged' || event.type === 'trustChanged') refresh();
  });

  /** The rule whose Delete was pressed: deleted only once the person confirms. */
  const [deleting, setDeleting] = useState<RuleEntry | null>(null);
  const remove = (r: RuleEntry) => {
    setDeleting(null);
    if (!isEditableScope(r.scope) && r.scope !== 'session') return;
    api
      .removeRule({ rule: r.rule, behavior: r.behavior, scope: r.scope })
      .then(changed, (err: unknown) => setError(errorMessage(err)));
  };

  return (
    <section className="panel rules-view" aria-labelledby="rules-title">
      <div className="rules-title-row">
        <h2 id="rules-title">Rules</h2>
        <button type="button" onClick={refresh}>
          Refresh
        </button>
      </div>
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {list ? (
        <>
          {list.trusted ? null : (
            <p className="muted">
              Project not trusted: its project and local allow rules, default mode and directories are not applied.
            </p>
          )}
          {list.fileErrors.length > 0 ? (
            <div className="rules-file-errors" role="alert" aria-label="Settings files that failed to load">
              <h3>Settings files that failed to load</h3>
              <ul>
                {list.fileErrors.map((e) => (
                  <li key={`${e.file}:${e.line ?? ''}:${e.reason}`}>
                    <Shown text={`${e.file}${e.line !== null ? `:${e.line}` : ''}`} strict lines="inline" as="code" />
                    <Shown
                      text={`: ${e.reason} (${e.effect ?? 'not applied; its last good version stays in force'})`}
                    />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {list.ruleErrors.length > 0 ? (
            <div className="rules-file-errors" aria-label="Rules that were skipped">
              <h3>Rules that were skipped</h3>
              <ul>
                {list.ruleErrors.map((e) => (
                  <li key={`${e.file ?? e.scope}|${e.behavior}|${e.rule}`}>
                    <Shown text={e.behavior} lines="inline" /> <Shown text={e.rule} strict lines="inline" as="code" />
                    {' in '}
                    <Shown text={e.file ?? e.scope} strict lines="inline" />
                    {': '}
                    <Shown text={e.reason} />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <RuleGroups rules={list.rules} scopeFiles={list.scopeFiles} onDelete={setDeleting} onChanged={changed} />
          <RuleBuilder key={list.project} scopeFiles={list.scopeFiles} onChanged={changed} />
          <h3>Add a rule</h3>
          <p className="muted">For those who know the syntax: type the rule (the builder above writes it for you).</p>
          <AddRuleForm onChanged={changed} scopeFiles={list.scopeFiles} />
          <ScopeModes list={list} onChanged={changed} />
          <AdditionalDirectories list={list} onChanged={changed} />
        </>
      ) : null}
      <CallSimulator />
      {deleting ? (
        <ConfirmDialog
          heading={`Delete this ${deleting.behavior} rule?`}
          actions={[{ label: 'Delete rule', danger: true, onClick: () => remove(deleting) }]}
          onCancel={() => setDeleting(null)}
        >
          <p>
            <Shown text={deleting.rule} strict lines="inline" as="code" />
          </p>
          <p>
            <Shown
              text={deleting.file ? `It is removed from ${deleting.file}.` : 'It is removed from this chat session.'}
            />
            {deleting.behavior === 'deny'
              ? ' What it denied is then decided by the other rules and the permission mode.'
              : null}
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
