import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { AppSettingsView, KeySource } from '../../../shared/settings-contract';
import { ApiKeyInputSchema } from '../../../shared/settings-contract';
import { errorMessage } from '../api/errors';
import { SettingStatus } from './SettingStatus';
import type { SaveStatus } from './SettingStatus';
import { Shown } from '../display/Shown';

const SOURCE_TEXT: Record<KeySource, string> = {
  environment: 'from the environment variable ANTHROPIC_API_KEY (it wins over a saved key)',
  'secure-store': "saved in this computer's secure store (encrypted by the operating system)",
  'settings-file': 'from model.apiKey in your settings.yaml',
  none: '',
};

export interface ApiKeyFormProps {
  apiKey: AppSettingsView['apiKey'];
  save(apiKey: string): Promise<unknown>;
  remove(): Promise<unknown>;
}

/**
 * The model's API key. The field is write-only: main never sends a key back, so the page shows only whether one
 * is set, where it comes from and, for a long key, its last four characters.
 */
export function ApiKeyForm({ apiKey, save, remove }: ApiKeyFormProps) {
  const [value, setValue] = useState('');
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle' });
  const ids = { input: useId(), state: useId(), note: useId(), problem: useId() };
  const checked = value ? ApiKeyInputSchema.safeParse(value) : null;
  const problem = checked && !checked.success ? (checked.error.issues[0]?.message ?? 'not a valid key') : null;
  const busy = status.state === 'saving';
  const removable = apiKey.source === 'secure-store' || apiKey.source === 'settings-file';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!value || problem || busy) return;
    setStatus({ state: 'saving' });
    save(value).then(
      () => {
        setValue('');
        setStatus({ state: 'saved', text: 'Key saved. The next message uses it.' });
      },
      (err: unknown) => setStatus({ state: 'failed', text: `Key not saved: ${errorMessage(err)}` }),
    );
  };
  const onRemove = () => {
    setStatus({ state: 'saving' });
    remove().then(
      () => setStatus({ state: 'saved', text: 'Stored key removed.' }),
      (err: unknown) => setStatus({ state: 'failed', text: `Key not removed: ${errorMessage(err)}` }),
    );
  };

  return (
    <form className="settings-form" onSubmit={submit} data-testid="settings-key">
      <p id={ids.state} className="settings-key-state" data-testid="settings-key-state">
        {apiKey.set ? (
          <>
            <span className="badge badge-ok">Key set</span> {SOURCE_TEXT[apiKey.source]}
            {apiKey.last4 ? (
              <>
                {' '}
                · ends in <Shown text={`…${apiKey.last4}`} strict lines="inline" as="code" />
              </>
            ) : null}
          </>
        ) : (
          <>
            <span className="badge badge-warn">No key</span> The chat needs an Anthropic API key.
          </>
        )}
      </p>
      <label htmlFor={ids.input}>API key</label>
      <div className="settings-row">
        <input
          id={ids.input}
          type="password"
          value={value}
          placeholder={apiKey.set ? 'Enter a new key to replace it' : 'sk-ant-…'}
          onChange={(e) => {
            setValue(e.target.value);
            if (!busy) setStatus({ state: 'idle' });
          }}
          aria-invalid={problem !== null}
          aria-describedby={`${ids.state} ${ids.note}${problem ? ` ${ids.problem}` : ''}`}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" disabled={!value || problem !== null || busy}>
          Save key
        </button>
        <button type="button" className="secondary" onClick={onRemove} disabled={!removable || busy}>
          Remove key
        </button>
      </div>
      <p id={ids.note} className="settings-note muted">
        <Shown text={`Save key stores it ${apiKey.storageNote}. Gatehouse never shows a saved key again.`} />
      </p>
      {apiKey.unavailable ? (
        <p className="settings-warning" role="note">
          <Shown text={apiKey.unavailable} />
        </p>
      ) : null}
      {problem ? (
        <p id={ids.problem} className="settings-status error">
          <Shown text={problem} />
        </p>
      ) : null}
      <SettingStatus status={status} testId="settings-key-status" />
    </form>
  );
}
