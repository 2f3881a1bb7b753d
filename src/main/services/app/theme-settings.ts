import { ThemeSchema } from '../../../shared/settings-contract';
import type { Theme } from '../../../shared/settings-contract';
import { readUserSettingsYamlAsync, settingsBlock } from '../../core/settings/user-settings-yaml';

const DEFAULT_THEME: Theme = 'system';

/**
 * `ui.theme` (light | dark | system) from the user's own settings.yaml. Missing: the default. Malformed: the
 * default with a warning naming the file; the file itself is left alone (nothing in it is lost).
 */
export async function readUserTheme(configDir: string): Promise<{ theme: Theme; warnings: string[] }> {
  const { file, value, problem } = await readUserSettingsYamlAsync(configDir);
  if (problem) return { theme: DEFAULT_THEME, warnings: [`${problem} (theme: using "${DEFAULT_THEME}")`] };
  const ui = settingsBlock(value, 'ui');
  if (ui === undefined || ui === null) return { theme: DEFAULT_THEME, warnings: [] };
  const raw = settingsBlock(ui, 'theme');
  if (typeof ui !== 'object' || Array.isArray(ui))
    return { theme: DEFAULT_THEME, warnings: [`${file}: ui must be a mapping (theme: using "${DEFAULT_THEME}")`] };
  if (raw === undefined || raw === null) return { theme: DEFAULT_THEME, warnings: [] };
  const parsed = ThemeSchema.safeParse(raw);
  if (!parsed.success) {
    const shown = typeof raw === 'string' ? `"${raw.slice(0, 40)}"` : typeof raw;
    return {
      theme: DEFAULT_THEME,
      warnings: [`${file}: ui.theme must be light, dark or system, not ${shown} (using "${DEFAULT_THEME}")`],
    };
  }
  return { theme: parsed.data, warnings: [] };
}
