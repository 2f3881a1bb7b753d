import { useEffect } from 'react';
import type { AppSettingsView } from '../../../shared/settings-contract';
import { BaseUrlSchema, ModelNameSchema } from '../../../shared/settings-contract';
import { useApi } from '../api/context';
import { ApiKeyForm } from './ApiKeyForm';
import { acceptSettings, loadSettings, useSettings } from './settings-store';
import { TextSettingForm } from './TextSettingForm';
import { ThemePicker } from './ThemePicker';
import { Shown, shownText } from '../display/Shown';
import { UpdatesLine } from './UpdatesLine';
import { NotificationSetting } from './NotificationSetting';
import { CheckpointSettings } from './CheckpointSettings';

const SOURCE: Record<AppSettingsView['model']['source'], string> = {
  environment: 'set by the environment, which wins over this field',
  'settings-file': 'from your settings',
  default: "Gatehouse's default",
  none: 'none',
};

function modelNote(model: AppSettingsView['model']): string {
  return `The chat uses ${model.effective} (${SOURCE[model.source]}). Leave empty for the default.`;
}

function baseUrlNote(base: AppSettingsView['baseURL']): string {
  if (!base.effective) return "Optional: a proxy or gateway in front of Anthropic's API. Empty: api.anthropic.com.";
  return `The chat sends requests to ${base.effective} (${SOURCE[base.source]}).`;
}

/** The Settings view: model, API key, base URL, auto mode, checkpoints and theme, saved to the user's own settings. */
export function SettingsView() {
  const api = useApi();
  const { view, loadError } = useSettings();
  useEffect(() => void loadSettings(api), [api]);

  const saveAnd = <T,>(call: Promise<T & AppSettingsView>) => call.then((v) => acceptSettings(v));

  return (
    <section className="panel settings-view" aria-labelledby="settings-title" data-testid="settings-view">
      <h2 id="settings-title" tabIndex={-1}>
        Settings
      </h2>
      {loadError ? (
        <p className="error" role="alert">
          <Shown text={`Could not load the settings: ${loadError}`} />
        </p>
      ) : null}
      {view ? (
        <>
          <p className="panel-note">
            Saved in your own settings (<Shown text={view.settingsFile} strict lines="inline" as="code" />
            ), never in a project&apos;s.
          </p>
          {view.warnings.length > 0 ? (
            <ul className="settings-warning" aria-label="Settings problems" data-testid="settings-warnings">
              {view.warnings.map((w) => (
                <li key={w}>
                  <Shown text={w} />
                </li>
              ))}
            </ul>
          ) : null}
          <h3>Model</h3>
          <TextSettingForm
            label="Model name"
            saved={view.model.saved}
            note={modelNote(view.model)}
            placeholder={shownText(view.model.effective)}
            schema={ModelNameSchema}
            button="Save model"
            testId="settings-model"
            save={(name) => saveAnd(api.saveModelSettings({ name }))}
          />
          <ApiKeyForm
            apiKey={view.apiKey}
            save={(apiKey) => saveAnd(api.saveApiKey({ apiKey }))}
            remove={() => saveAnd(api.removeApiKey({}))}
          />
          <TextSettingForm
            label="Base URL"
            saved={view.baseURL.saved}
            note={baseUrlNote(view.baseURL)}
            placeholder="https://api.anthropic.com"
            schema={BaseUrlSchema}
            button="Save base URL"
            testId="settings-base-url"
            save={(baseURL) => saveAnd(api.saveModelSettings({ baseURL }))}
          />
          <h3>Auto mode</h3>
          <TextSettingForm
            label="Classifier model"
            saved={view.classifierModel.saved}
            note={`In auto mode, ${view.classifierModel.effective} answers the asks of the mode and the defaults before you are asked (through the chat's provider). Leave empty for the default small model.`}
            placeholder={shownText(view.classifierModel.effective)}
            schema={ModelNameSchema}
            button="Save classifier model"
            testId="settings-classifier-model"
            save={(classifierModel) => saveAnd(api.saveAutoSettings({ classifierModel }))}
          />
          <h3>Checkpoints</h3>
          <CheckpointSettings />
          <h3>Appearance</h3>
          <ThemePicker theme={view.theme} save={(theme) => saveAnd(api.setTheme({ theme }))} />
          <h3>Notifications</h3>
          <NotificationSetting />
          <h3>Updates</h3>
          <UpdatesLine />
        </>
      ) : loadError ? null : (
        <p className="muted" role="status">
          Loading settings…
        </p>
      )}
    </section>
  );
}
