import { useState } from 'react';
import type { Theme } from '../../../shared/settings-contract';
import { errorMessage } from '../api/errors';
import { SettingStatus } from './SettingStatus';
import type { SaveStatus } from './SettingStatus';
import { applyTheme } from './theme';
import { Shown } from '../display/Shown';

const CHOICES: ReadonlyArray<{ value: Theme; label: string; hint: string }> = [
  { value: 'light', label: 'Light', hint: 'always light' },
  { value: 'dark', label: 'Dark', hint: 'always dark' },
  { value: 'system', label: 'System', hint: 'follows your operating system, live' },
];

/** Light / Dark / System as a radio group (arrow keys move and choose): applied at once, then saved. */
export function ThemePicker({ theme, save }: { theme: Theme; save(theme: Theme): Promise<unknown> }) {
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle' });
  // The choice shows (and applies) at once; a failed save puts the saved theme back.
  const [chosen, setChosen] = useState(theme);
  const [saved, setSaved] = useState(theme);
  if (theme !== saved) {
    setSaved(theme);
    setChosen(theme);
  }

  const choose = (next: Theme) => {
    if (next === chosen) return;
    setChosen(next);
    applyTheme(next);
    setStatus({ state: 'saving' });
    save(next).then(
      () => setStatus({ state: 'saved', text: `Theme saved: ${next}.` }),
      (err: unknown) => {
        setChosen(saved);
        applyTheme(saved);
        setStatus({ state: 'failed', text: `Theme not saved: ${errorMessage(err)}` });
      },
    );
  };

  return (
    <fieldset className="settings-form settings-theme" data-testid="settings-theme">
      <legend>Theme</legend>
      <div className="settings-radios">
        {CHOICES.map((c) => (
          <label key={c.value} className="settings-radio">
            <input
              type="radio"
              name="gatehouse-theme"
              value={c.value}
              checked={chosen === c.value}
              onChange={() => choose(c.value)}
            />
            <span>
              <Shown text={c.label} lines="inline" /> <Shown className="muted" text={`(${c.hint})`} lines="inline" />
            </span>
          </label>
        ))}
      </div>
      <SettingStatus status={status} testId="settings-theme-status" />
    </fieldset>
  );
}
