import { useEffect, useRef } from 'react';
import { useApi, useApiEvent, useConnection } from '../api/context';
import { loadSettings } from './settings-store';

/** Keeps the settings (and so the theme) current: on every (re)connection and when any page saved a change. */
export function useSettingsSync(): void {
  const api = useApi();
  const connected = useConnection().status === 'open';
  useEffect(() => {
    if (connected) void loadSettings(api);
  }, [api, connected]);
  useApiEvent((event) => {
    if (event.type === 'settingsChanged') void loadSettings(api);
  });
}

/** True for the Settings shortcut: Ctrl+, (Cmd+, on macOS), as in most desktop apps. */
function isSettingsShortcut(event: KeyboardEvent): boolean {
  return event.key === ',' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/** Ctrl+, (Cmd+,) anywhere in the page calls `open` (not while a modal dialog holds the focus). */
export function useSettingsShortcut(open: () => void): void {
  const latest = useRef(open);
  useEffect(() => {
    latest.current = open;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (!isSettingsShortcut(event) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** After the view switched: the focus goes to the Settings heading, so the keyboard starts there. */
export function focusSettingsHeading(): void {
  requestAnimationFrame(() => document.getElementById('settings-title')?.focus());
}
