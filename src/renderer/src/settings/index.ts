// The Settings page (model, API key, base URL, theme) and the theme on <html>: import from here.
export { SettingsView } from './SettingsView';
export { focusSettingsHeading, isSettingsShortcut, useSettingsShortcut, useSettingsSync } from './settings-sync';
export { applyCachedTheme, applyTheme } from './theme';
