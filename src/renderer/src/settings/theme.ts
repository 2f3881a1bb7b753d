import type { Theme } from '../../../shared/settings-contract';

// No zod here: the page's entry applies the cached theme before the app (and its schemas) loads.
const THEMES = ['system', 'light', 'dark'] as const satisfies readonly Theme[];
/** Fails to compile when a theme is added to the contract but not here. */
const EVERY_THEME: [Exclude<Theme, (typeof THEMES)[number]>] extends [never] ? true : never = true;
void EVERY_THEME;

const CACHE_KEY = 'gatehouse.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

let chosen: Theme = 'system';
let media: MediaQueryList | null = null;

function resolved(theme: Theme): 'light' | 'dark' {
  if (theme !== 'system') return theme;
  return window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light';
}

function paint(): void {
  const root = document.documentElement;
  root.dataset.theme = resolved(chosen);
  root.dataset.themeSetting = chosen;
}

function onSystemChange(): void {
  if (chosen === 'system') paint();
}

/**
 * Applies a theme as `data-theme="light|dark"` on <html> (styles.css has both palettes). "system" follows
 * `prefers-color-scheme`, live: switching the OS to dark mode repaints at once. Remembered in localStorage so the
 * next start paints the right colours before the settings arrive.
 */
export function applyTheme(theme: Theme): void {
  chosen = theme;
  if (!media && typeof window.matchMedia === 'function') {
    media = window.matchMedia(DARK_QUERY);
    media.addEventListener('change', onSystemChange);
  }
  paint();
  try {
    window.localStorage.setItem(CACHE_KEY, theme);
  } catch {
    // storage unavailable: the settings still apply on every load
  }
}

/** The last theme this page applied (before the settings load); system when none or unreadable. */
export function applyCachedTheme(): void {
  let cached: string | null;
  try {
    cached = window.localStorage.getItem(CACHE_KEY);
  } catch {
    cached = null;
  }
  applyTheme(THEMES.find((t) => t === cached) ?? 'system');
}
