import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { RuleBehavior } from '../../../shared/permission';
import type { EditableScope } from '../../../shared/rules-contract';
import { errorMessage, useApi } from '../api';
import { useRuleValidation, validationText } from './use-rule-validation';

/** Add a rule: live syntax validation (Add is disabled while the rule does not parse). */
export function AddRuleForm({ onChanged, scopeFiles }: { onChanged(): void; scopeFiles: Record<EditableScope, string> }) {
  const api = useApi();
  const [rule, setRule] = useState('');
  const [behavior, setBehavior] = useState<RuleBehavior>('allow');
  const [scope, setScope] = useState<EditableScope>('project');
  const validation = useRuleValidation(rule);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const ids = { rule: useId(), behavior: useId(), scope: useId(), hint: useId() };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (validation.state !== 'ok') return;
    api.addRule({ rule: rule.trim(), behavior, scope }).then(
      (r) => {
        setStatus({ text: r.changed ? `Added ${behavior} ${rule.trim()} to ${r.file}` : `${behavior} ${rule.trim()} is already in ${r.file}`, error: false });
        setRule('');
        onChanged();
      },
      (err: unknown) => setStatus({ text: errorMessage(err), error: true }),
    );
  };

  return (
    <form className="rules-add" onSubmit={submit} aria-label="Add a rule">
      <div className="rules-field">
        <label htmlFor={ids.rule}>Rule</label>
        <input
          id={ids.rule}
          type="text"
          value={rule}
          placeholder="Bash(npm test), Read(src/**), WebFetch(domain:example.com)"
          aria-invalid={validation.state === 'bad'}
          aria-describedby={ids.hint}
          onChange={(e) => setRule(e.target.value)}
          spellCheck={false}
          autoComplete="off"
        />
      </div>
      <div className="rules-field">
        <label htmlFor={ids.behavior}>Behavior</label>
        <select id={ids.behavior} value={behavior} onChange={(e) => setBehavior(e.target.value as RuleBehavior)}>
          <option value="allow">allow</option>
          <option value="ask">ask</option>
          <option value="deny">deny</option>
        </select>
      </div>
      <div className="rules-field">
        <label htmlFor={ids.scope}>Scope</label>
        <select id={ids.scope} value={scope} onChange={(e) => setScope(e.target.value as EditableScope)}>
          <option value="user">user</option>
          <option value="project">project</option>
          <option value="local">local</option>
        </select>
      </div>
      <button type="submit" disabled={validation.state !== 'ok'}>
        Add rule
      </button>
      <p id={ids.hint} className={validation.state === 'bad' ? 'rules-hint error' : 'rules-hint muted'} aria-live="polite" data-testid="rule-validation">
        {validationText(validation, scopeFiles[scope])}
      </p>
      {status ? (
        <p className={status.error ? 'error' : 'muted'} role={status.error ? 'alert' : 'status'}>
          {status.text}
        </p>
      ) : null}
    </form>
  );
}
