import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { z } from 'zod';
import { errorMessage } from '../api/errors';
import { SettingStatus } from './SettingStatus';
import type { SaveStatus } from './SettingStatus';
import { Shown, shownText } from '../display/Shown';

export interface TextSettingFormProps {
  label: string;
  /** The value saved in settings.yaml (null: none). */
  saved: string | null;
  /** Under the field: what is in effect now and why. */
  note: string;
  placeholder: string;
  /** The same schema main validates with: the field says what is wrong before anything is sent. */
  schema: z.ZodType<string>;
  button: string;
  testId: string;
  /** Saves the value; null removes it (an empty field). */
  save(value: string | null): Promise<unknown>;
}

/** One text setting (model name, base URL): live validation, then save with progress and the outcome. */
export function TextSettingForm(props: TextSettingFormProps) {
  const { label, saved, note, placeholder, schema, button, testId, save } = props;
  const [value, setValue] = useState(saved ?? '');
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle' });
  const ids = { input: useId(), note: useId(), problem: useId() };

  // A newly saved value (here, or from another page) replaces the field's text.
  const [shown, setShown] = useState(saved);
  if (saved !== shown) {
    setShown(saved);
    setValue(saved ?? '');
  }

  const trimmed = value.trim();
  const checked = trimmed ? schema.safeParse(trimmed) : null;
  const problem = checked && !checked.success ? (checked.error.issues[0]?.message ?? 'invalid value') : null;
  const unchanged = trimmed === (saved ?? '');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problem || unchanged) return;
    setStatus({ state: 'saving' });
    save(trimmed || null).then(
      () => setStatus({ state: 'saved', text: trimmed ? `${label} saved.` : `${label} removed.` }),
      (err: unknown) => setStatus({ state: 'failed', text: `${label} not saved: ${errorMessage(err)}` }),
    );
  };

  return (
    <form className="settings-form" onSubmit={submit} data-testid={testId}>
      <label htmlFor={ids.input}>
        <Shown text={label} lines="inline" />
      </label>
      <div className="settings-row">
        <input
          id={ids.input}
          type="text"
          value={value}
          placeholder={placeholder === undefined ? undefined : shownText(placeholder)}
          onChange={(e) => {
            setValue(e.target.value);
            if (status.state !== 'saving') setStatus({ state: 'idle' });
          }}
          aria-invalid={problem !== null}
          aria-describedby={`${ids.note}${problem ? ` ${ids.problem}` : ''}`}
          spellCheck={false}
          autoComplete="off"
        />
        <button type="submit" disabled={problem !== null || unchanged || status.state === 'saving'}>
          <Shown text={button} lines="inline" />
        </button>
      </div>
      <p id={ids.note} className="settings-note muted">
        <Shown text={note} />
      </p>
      {problem ? (
        <p id={ids.problem} className="settings-status error">
          <Shown text={problem} />
        </p>
      ) : null}
      <SettingStatus status={status} testId={`${testId}-status`} />
    </form>
  );
}
