import { create } from 'zustand';
import type { GatehouseApi } from '../../../shared/api';
import type { AppSettingsView } from '../../../shared/settings-contract';
import { errorMessage } from '../api/errors';
import { useChat } from '../chat/chat-store';
import { applyTheme } from './theme';

export interface SettingsState {
  view: AppSettingsView | null;
  loadError: string | null;
}

export const useSettings = create<SettingsState>(() => ({ view: null, loadError: null }));

/** Takes main's answer: the page's view of the settings, the theme on <html>, and the chat's "no key" note. */
export function acceptSettings(view: AppSettingsView): void {
  useSettings.setState({ view, loadError: null });
  applyTheme(view.theme);
  useChat.setState({ hasModelKey: view.apiKey.set });
}

export async function loadSettings(api: GatehouseApi): Promise<void> {
  try {
    acceptSettings(await api.getAppSettings({}));
  } catch (err) {
    useSettings.setState({ loadError: errorMessage(err) });
  }
}
