import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { RuleBehaviorSchema } from '../../../shared/permission';
import type { RuleBehavior } from '../../../shared/permission';
import { EditableScopeSchema } from '../../../shared/rules-contract';
import type { EditableScope } from '../../../shared/rules-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { ChoiceField, TextField } from './RuleFields';
import { useRuleValidation, validationText } from './use-rule-validation';
import { Shown } from '../display/Shown';

/** Add a rule: live syntax validation (Add is disabled while the rule does not parse). */
export function AddRuleForm({
  onChanged,
  scopeFiles,
}: {
  onChanged(): void;
  scopeFiles: Record<EditableScope, string>;
}) {
  const api = useApi();
  const [rule, setRule] = useState('');
  const [behavior, setBehavior] = useState<RuleBehavior>('allow');
  // This machine by default: a rule reaches everyone who clones the project only when the person says so.
  const [scope, setScope] = useState<EditableScope>('local');
  const validation = useRuleValidation(rule, behavior);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const hintId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (validation.state !== 'ok') return;
    api.addRule({ rule: rule.trim(), behavior, scope }).then(
      (r) => {
        setStatus({
          text: r.changed
            ? `Added ${behavior} ${rule.trim()} to ${r.file}`
            : `${behavior} ${rule.trim()} is already in ${r.file}`,
          error: false,
        });
        setRule('');
        onChanged();
      },
      (err: unknown) => setStatus({ text: errorMessage(err), error: true }),
    );
  };

  return (
    <form className="rules-add" onSubmit={submit} aria-label="Add a rule">
      <TextField
        label="Rule"
        value={rule}
        placeholder="Bash(npm test) or Read(src/**)"
        invalid={validation.state === 'bad'}
        describedBy={hintId}
        onChange={setRule}
      />
      <ChoiceField label="Behavior" value={behavior} choices={RuleBehaviorSchema} onChange={setBehavior} />
      <ChoiceField label="Scope" value={scope} choices={EditableScopeSchema} onChange={setScope} />
      <button type="submit" disabled={validation.state !== 'ok'}>
        Add rule
      </button>
      <p
        id={hintId}
        className={
          validation.state === 'bad'
            ? 'rules-hint error'
            : validation.state === 'ok' && validation.warnings.length
              ? 'rules-hint rule-warning'
              : 'rules-hint muted'
        }
        aria-live="polite"
        data-testid="rule-validation"
      >
        <Shown text={validationText(validation, scopeFiles[scope])} />
      </p>
      {status ? (
        <p className={status.error ? 'error' : 'muted'} role={status.error ? 'alert' : 'status'}>
          <Shown text={status.text} />
        </p>
      ) : null}
    </form>
  );
}
