import { useState } from 'react';
import type { EditableScope, RuleEntry, RuleScope } from '../../../shared/rules-contract';
import { EditRuleForm } from './EditRuleForm';
import { SCOPE_LABELS, SCOPE_ORDER } from './rules-api';
import { Shown, shownText } from '../display/Shown';

type GroupKey = RuleScope | 'claude';

function groupOf(r: RuleEntry): GroupKey {
  return r.claudeImport ? 'claude' : r.scope;
}

function ruleKey(r: RuleEntry): string {
  return `${r.behavior}|${r.rule}|${r.file ?? (r.scope === 'session' ? 'until this chat session ends' : '')}`;
}

function editable(r: RuleEntry): r is RuleEntry & { scope: EditableScope } {
  return r.editable && (r.scope === 'user' || r.scope === 'project' || r.scope === 'local');
}

export interface RuleGroupsProps {
  rules: RuleEntry[];
  scopeFiles: Record<EditableScope, string>;
  onDelete(rule: RuleEntry): void;
  /** An edit or move was saved: re-read the rules. */
  onChanged(): void;
}

/** Every rule, grouped by scope, with its behaviour and file; editable rules can be edited in place or deleted. */
export function RuleGroups({ rules, scopeFiles, onDelete, onChanged }: RuleGroupsProps) {
  const [editing, setEditing] = useState<string | null>(null);
  /** After a cancelled edit, focus goes back to the row's Edit button (keyboard users stay in place). */
  const [refocus, setRefocus] = useState<string | null>(null);
  if (rules.length === 0) return <p className="muted">No rules yet: every call follows the permission mode.</p>;
  const groups = SCOPE_ORDER.map((key) => ({ key, rules: rules.filter((r) => groupOf(r) === key) })).filter(
    (g) => g.rules.length > 0,
  );
  return (
    <>
      {groups.map((g) => {
        const readOnly = g.rules.every((r) => !r.editable);
        const headingId = `rules-group-${g.key}`;
        return (
          <section key={g.key} className="rules-group" aria-labelledby={headingId} data-testid={`rules-group-${g.key}`}>
            <h3 id={headingId}>
              {SCOPE_LABELS[g.key]}
              {readOnly ? <span className="rules-readonly"> (read-only)</span> : null}
            </h3>
            <ul className="rules-list reflow">
              {g.rules.map((r) =>
                editing === ruleKey(r) && editable(r) ? (
                  <li key={ruleKey(r)} className="rules-row rules-row-editing">
                    <EditRuleForm
                      entry={r}
                      scopeFiles={scopeFiles}
                      onDone={(changed) => {
                        setEditing(null);
                        if (changed) onChanged();
                        else setRefocus(ruleKey(r));
                      }}
                    />
                  </li>
                ) : (
                  <li key={ruleKey(r)} className="rules-row reflow-row">
                    <Shown className={`rules-badge rules-badge-${r.behavior}`} text={r.behavior} lines="inline" />
                    <Shown className="rules-text" text={r.rule} strict lines="inline" as="code" />
                    {r.appliesToTools || r.warnings?.length ? null : <span className="muted"> (no such tool yet)</span>}
                    <span
                      className="rules-file muted reflow-line"
                      title={r.file === null ? undefined : shownText(r.file, { strict: true })}
                    >
                      <Shown
                        text={r.file ?? (r.scope === 'session' ? 'until this chat session ends' : '')}
                        strict={r.file !== null}
                        lines="inline"
                      />
                    </span>
                    {editable(r) ? (
                      <>
                        <button
                          type="button"
                          className="secondary rules-edit-button"
                          aria-label={shownText(`Edit ${r.rule}`, { strict: true })}
                          onClick={() => setEditing(ruleKey(r))}
                          ref={(el) => {
                            if (el && refocus === ruleKey(r)) {
                              el.focus();
                              setRefocus(null);
                            }
                          }}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="danger rules-delete"
                          aria-label={shownText(`Delete ${r.rule}`, { strict: true })}
                          onClick={() => onDelete(r)}
                        >
                          Delete
                        </button>
                      </>
                    ) : r.scope === 'session' && r.editable ? (
                      <button
                        type="button"
                        className="danger rules-delete"
                        aria-label={shownText(`Delete ${r.rule}`, { strict: true })}
                        onClick={() => onDelete(r)}
                      >
                        Delete
                      </button>
                    ) : null}
                    {(r.warnings ?? []).map((w) => (
                      <span key={w} className="rule-warning rules-row-note">
                        <Shown text={`⚠ ${w}`} />
                      </span>
                    ))}
                  </li>
                ),
              )}
            </ul>
          </section>
        );
      })}
    </>
  );
}
