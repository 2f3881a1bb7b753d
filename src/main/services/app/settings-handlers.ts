import type { z } from 'zod';
import type { AppSettingsView, KeySource, SettingsChannels } from '../../../shared/settings-contract';
import { modelConfigSources } from '../agent-runs/model-config';
import type { ModelValueSource, Sourced } from '../agent-runs/model-config';
import { readUserModelSettings } from '../agent-runs/model-settings';
import { editUserSettingsYaml, readUserSettingsYamlAsync, settingsBlock } from '../../core/settings/user-settings-yaml';
import type { SettingChange } from '../../core/settings/user-settings-yaml';
import { userSettingsFile } from '../../core/settings/settings-locations';
import type { SecretStore } from './secret-store';
import { readUserTheme } from './theme-settings';
import { readAutoSettings } from '../../core/auto/auto-settings';
import { networkSettingsProblems } from '../../core/network/network-settings';

type Channels = typeof SettingsChannels;
export type SettingsHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

export interface SettingsHandlerSources {
  configDir: string;
  /** The server's environment: ANTHROPIC_API_KEY / ANTHROPIC_MODEL / ANTHROPIC_BASE_URL win over anything saved. */
  env: NodeJS.ProcessEnv;
  secrets: SecretStore;
  /** Something was saved: tell every page (the event carries no value). */
  changed: () => void;
}

/** A key's last four characters, only for a key long enough that they say little about it. */
const LAST4_MIN_LENGTH = 16;

function keySource(source: ModelValueSource): KeySource {
  if (source === 'environment' || source === 'secure-store') return source;
  return 'settings-file';
}

function valueSource(sourced: Sourced | null): 'environment' | 'settings-file' | 'default' | 'none' {
  if (!sourced) return 'none';
  return sourced.source === 'environment' ? 'environment' : sourced.source === 'default' ? 'default' : 'settings-file';
}

/** What the Settings page may see: never the key, only whether one is set, where from, and at most its last 4. */
async function appSettingsView(
  sources: Pick<SettingsHandlerSources, 'configDir' | 'env' | 'secrets'>,
): Promise<AppSettingsView> {
  const { configDir, env, secrets } = sources;
  const [model, theme, auto, network] = await Promise.all([
    readUserModelSettings(configDir),
    readUserTheme(configDir),
    readAutoSettings(configDir),
    networkSettingsProblems({ configDir, env }),
  ]);
  const stored = secrets.kind === 'secure-store' ? secrets.get() : null;
  const resolved = modelConfigSources(env, {}, model.settings, stored);
  const key = resolved.apiKey;
  const problem = await secrets.problem();
  return {
    model: { saved: model.settings.name ?? null, effective: resolved.model.value, source: valueSource(resolved.model) },
    baseURL: {
      saved: model.settings.baseURL ?? null,
      effective: resolved.baseURL?.value ?? null,
      source: valueSource(resolved.baseURL),
    },
    apiKey: {
      set: key !== null,
      source: key ? keySource(key.source) : 'none',
      last4: key && key.value.length >= LAST4_MIN_LENGTH ? key.value.slice(-4) : null,
      storage: secrets.kind,
      storageNote: secrets.description,
      unavailable: problem,
    },
    classifierModel: { saved: auto.saved, effective: auto.classifierModel },
    theme: theme.theme,
    settingsFile: userSettingsFile(configDir),
    warnings: [...model.warnings, ...theme.warnings, ...(auto.warning ? [auto.warning] : []), ...network],
  };
}

/**
 * The Settings page's channels. Everything is written to the user's own settings.yaml (YAML Document API: comments
 * kept; atomic; mode 0600) or, for the key on the desktop, to the OS-encrypted store. Every answer is the view.
 */
export function createSettingsHandlers(sources: SettingsHandlerSources): SettingsHandlers {
  const view = async (): Promise<AppSettingsView> => {
    await sources.secrets.ready?.();
    return appSettingsView(sources);
  };
  const saved = (): Promise<AppSettingsView> => {
    sources.changed();
    return view();
  };
  return {
    getAppSettings: view,
    saveModelSettings: async ({ name, baseURL }) => {
      const changes: SettingChange[] = [];
      if (name !== undefined) changes.push({ block: 'model', key: 'name', value: name });
      if (baseURL !== undefined) changes.push({ block: 'model', key: 'baseURL', value: baseURL });
      await editUserSettingsYaml(sources.configDir, changes);
      return saved();
    },
    saveAutoSettings: async ({ classifierModel }) => {
      await editUserSettingsYaml(sources.configDir, [
        { block: 'auto', key: 'classifierModel', value: classifierModel },
      ]);
      return saved();
    },
    saveApiKey: async ({ apiKey }) => {
      await sources.secrets.set(apiKey);
      return saved();
    },
    removeApiKey: async () => {
      await sources.secrets.clear();
      // A plain-text key in the file would take over at once: "Remove key" removes that one too.
      if (
        settingsBlock(settingsBlock((await readUserSettingsYamlAsync(sources.configDir)).value, 'model'), 'apiKey') !==
        undefined
      ) {
        await editUserSettingsYaml(sources.configDir, [{ block: 'model', key: 'apiKey', value: null }]);
      }
      return saved();
    },
    setTheme: async ({ theme }) => {
      await editUserSettingsYaml(sources.configDir, [{ block: 'ui', key: 'theme', value: theme }]);
      return saved();
    },
  };
}
