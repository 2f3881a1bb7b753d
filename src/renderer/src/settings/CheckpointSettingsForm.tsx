import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { CheckpointSettingsValuesSchema } from '../../../shared/checkpoint-settings-contract';
import type { CheckpointSettingsValues } from '../../../shared/checkpoint-settings-contract';
import { errorMessage } from '../api/errors';
import { Shown } from '../display/Shown';
import { SettingStatus } from './SettingStatus';
import type { SaveStatus } from './SettingStatus';

const MIB = 1024 * 1024;

type NumberKey = 'retentionDays' | 'maxFileBytes' | 'maxFiles';
type Texts = Record<NumberKey, string>;

const FIELDS: ReadonlyArray<{ key: NumberKey; label: string; note: string }> = [
  { key: 'retentionDays', label: 'Keep checkpoints for (days)', note: 'Older checkpoints are deleted.' },
  {
    key: 'maxFileBytes',
    label: 'Largest file (MiB)',
    note: 'Larger files are left out of a checkpoint, and listed as left out.',
  },
  {
    key: 'maxFiles',
    label: 'Most files',
    note: 'A project with more files (not counting ignored ones) gets no checkpoint, and the chat says so.',
  },
];

function textsOf(s: CheckpointSettingsValues): Texts {
  return {
    retentionDays: String(s.retentionDays),
    maxFileBytes: String(Number((s.maxFileBytes / MIB).toFixed(4))),
    maxFiles: String(s.maxFiles),
  };
}

/** The values the texts say (a size left as shown keeps its exact bytes), or why a field is wrong. */
function check(texts: Texts, enabled: boolean, saved: CheckpointSettingsValues) {
  const problems: Partial<Record<NumberKey, string>> = {};
  const numbers = {} as Record<NumberKey, number>;
  for (const { key } of FIELDS) {
    const text = texts[key].trim();
    const n = Number(text);
    if (!text || !Number.isFinite(n)) problems[key] = 'enter a number';
    numbers[key] =
      key !== 'maxFileBytes' ? n : text === textsOf(saved).maxFileBytes ? saved.maxFileBytes : Math.round(n * MIB);
  }
  const parsed = CheckpointSettingsValuesSchema.safeParse({ enabled, ...numbers });
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as NumberKey;
      problems[key] ??= issue.message;
    }
  return { values: parsed.success ? parsed.data : null, problems };
}

export interface CheckpointSettingsFormProps {
  saved: CheckpointSettingsValues;
  /** The block in the file is malformed: saving is off so it is never overwritten. */
  locked: boolean;
  save(values: CheckpointSettingsValues): Promise<unknown>;
}

/** On/off, how long, the largest file and the most files: checked as typed with main's schema, saved together. */
export function CheckpointSettingsForm({ saved, locked, save }: CheckpointSettingsFormProps) {
  const [enabled, setEnabled] = useState(saved.enabled);
  const [texts, setTexts] = useState(() => textsOf(saved));
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle' });
  const base = useId();
  // Newly saved values (here, or from another page) replace the fields.
  const [shown, setShown] = useState(saved);
  if (JSON.stringify(saved) !== JSON.stringify(shown)) {
    setShown(saved);
    setEnabled(saved.enabled);
    setTexts(textsOf(saved));
  }

  const { values, problems } = check(texts, enabled, saved);
  const unchanged = enabled === saved.enabled && JSON.stringify(texts) === JSON.stringify(textsOf(saved));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!values || unchanged || locked) return;
    setStatus({ state: 'saving' });
    save(values).then(
      () => setStatus({ state: 'saved', text: 'Checkpoint settings saved.' }),
      (err: unknown) => setStatus({ state: 'failed', text: `Checkpoint settings not saved: ${errorMessage(err)}` }),
    );
  };
  const edited = () => {
    if (status.state !== 'saving') setStatus({ state: 'idle' });
  };

  return (
    <form
      className="settings-form"
      onSubmit={submit}
      data-testid="settings-checkpoints"
      aria-label="Checkpoint settings"
    >
      <label className="settings-radio settings-check">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => {
            setEnabled(e.target.checked);
            edited();
          }}
        />
        <span>Take a checkpoint of the project&apos;s files before each prompt that may change them</span>
      </label>
      {FIELDS.map(({ key, label, note }) => (
        <div key={key} className="settings-field">
          <label htmlFor={`${base}-${key}`}>
            <Shown text={label} lines="inline" />
          </label>
          <input
            id={`${base}-${key}`}
            type="text"
            inputMode="decimal"
            value={texts[key]}
            onChange={(e) => {
              setTexts({ ...texts, [key]: e.target.value });
              edited();
            }}
            aria-invalid={problems[key] !== undefined}
            aria-describedby={`${base}-${key}-note${problems[key] ? ` ${base}-${key}-problem` : ''}`}
            autoComplete="off"
            spellCheck={false}
          />
          <p id={`${base}-${key}-note`} className="settings-note muted">
            <Shown text={note} />
          </p>
          {problems[key] ? (
            <p id={`${base}-${key}-problem`} className="settings-status error">
              <Shown text={problems[key]} />
            </p>
          ) : null}
        </div>
      ))}
      <div className="settings-row">
        <button type="submit" disabled={!values || unchanged || locked || status.state === 'saving'}>
          Save checkpoint settings
        </button>
      </div>
      <SettingStatus status={status} testId="settings-checkpoints-status" />
    </form>
  );
}
