import type { RuleEntry, RuleScope } from '../../../shared/rules-contract';
import { SCOPE_LABELS, SCOPE_ORDER } from './rules-api';

type GroupKey = RuleScope | 'claude';

function groupOf(r: RuleEntry): GroupKey {
  return r.claudeImport ? 'claude' : r.scope;
}

/** Every rule, grouped by scope, with its behaviour and file; editable rules get a delete button. */
export function RuleGroups({ rules, onDelete }: { rules: RuleEntry[]; onDelete(rule: RuleEntry): void }) {
  if (rules.length === 0) return <p className="muted">No rules yet: every call follows the permission mode.</p>;
  const groups = SCOPE_ORDER.map((key) => ({ key, rules: rules.filter((r) => groupOf(r) === key) })).filter((g) => g.rules.length > 0);
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
            <ul className="rules-list">
              {g.rules.map((r) => (
                <li key={`${r.behavior}|${r.rule}|${r.file ?? ''}`} className="rules-row">
                  <span className={`rules-badge rules-badge-${r.behavior}`}>{r.behavior}</span>
                  <code className="rules-text">{r.rule}</code>
                  {r.appliesToTools ? null : <span className="muted"> (no such tool yet)</span>}
                  <span className="rules-file muted" title={r.file ?? undefined}>
                    {r.file ?? ''}
                  </span>
                  {r.editable ? (
                    <button type="button" className="rules-delete" aria-label={`Delete ${r.rule}`} onClick={() => onDelete(r)}>
                      Delete
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}
