import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { RuleBehaviorSchema } from '../../../shared/permission';
import type { RuleBehavior } from '../../../shared/permission';
import { EditableScopeSchema } from '../../../shared/rules-contract';
import type { EditableScope, RuleEntry } from '../../../shared/rules-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { ChoiceField, TextField } from './RuleFields';
import { useRuleValidation, validationText } from './use-rule-validation';
import { Shown } from '../display/Shown';

export interface EditRuleFormProps {
  entry: RuleEntry & { scope: EditableScope };
  scopeFiles: Record<EditableScope, string>;
  onDone(changed: boolean): void;
}

/**
 * Edits one rule where it stands: its text and behaviour (validated live, like Add), and its scope (a move: main adds
 * it to the new file first, then removes it from the old one). Enter saves, Escape cancels.
 */
export function EditRuleForm({ entry, scopeFiles, onDone }: EditRuleFormProps) {
  const api = useApi();
  const [rule, setRule] = useState(entry.rule);
  const [behavior, setBehavior] = useState<RuleBehavior>(entry.behavior);
  const [scope, setScope] = useState<EditableScope>(entry.scope);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const validation = useRuleValidation(rule, behavior);
  const hintId = useId();
  const ruleRef = useRef<HTMLInputElement>(null);
  const unchanged = rule.trim() === entry.rule && behavior === entry.behavior && scope === entry.scope;

  useEffect(() => {
    ruleRef.current?.focus();
    ruleRef.current?.select();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (validation.state !== 'ok' || saving) return;
    if (unchanged) return onDone(false);
    setSaving(true);
    const from = { rule: entry.rule, behavior: entry.behavior, scope: entry.scope };
    api.updateRule({ from, to: { rule: rule.trim(), behavior, scope } }).then(
      () => onDone(true),
      (err: unknown) => {
        setSaving(false);
        setError(errorMessage(err));
      },
    );
  };

  return (
    // Escape anywhere in the form cancels the edit (the keys land on its fields; the form only listens).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <form
      className="rules-add rules-edit"
      onSubmit={submit}
      aria-label={`Edit ${entry.rule}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onDone(false);
        }
      }}
    >
      <TextField
        label="Edit rule text"
        value={rule}
        inputRef={ruleRef}
        invalid={validation.state === 'bad'}
        describedBy={hintId}
        onChange={setRule}
      />
      <ChoiceField label="Edit behavior" value={behavior} choices={RuleBehaviorSchema} onChange={setBehavior} />
      <ChoiceField label="Edit scope" value={scope} choices={EditableScopeSchema} onChange={setScope} />
      <button type="submit" className="primary" disabled={validation.state !== 'ok' || saving}>
        Save
      </button>
      <button type="button" onClick={() => onDone(false)}>
        Cancel
      </button>
      <p
        id={hintId}
        className={validation.state === 'bad' ? 'rules-hint error' : 'rules-hint muted'}
        aria-live="polite"
        data-testid="edit-rule-validation"
      >
        <Shown
          text={
            scope !== entry.scope && validation.state === 'ok'
              ? `Valid rule; it moves from ${scopeFiles[entry.scope]} to ${scopeFiles[scope]}`
              : validationText(validation, scopeFiles[scope])
          }
        />
      </p>
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
    </form>
  );
}
