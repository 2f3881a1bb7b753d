import type { ITheme } from '@xterm/xterm';

const ANSI_NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;

/** The terminal's colours from the CSS variables of the current theme (code-theme.css), read on `el`. */
export function terminalTheme(el: Element): ITheme {
  const style = getComputedStyle(el);
  const v = (name: string): string | undefined => style.getPropertyValue(name).trim() || undefined;
  const theme: Record<string, string | undefined> = {
    background: v('--term-bg'),
    foreground: v('--term-fg'),
    cursor: v('--term-fg'),
    selectionBackground: v('--term-selection'),
  };
  ANSI_NAMES.forEach((name, i) => {
    theme[name] = v(`--ansi-${i}`);
    theme[`bright${name.charAt(0).toUpperCase()}${name.slice(1)}`] = v(`--ansi-${i + 8}`);
  });
  return Object.fromEntries(Object.entries(theme).filter(([, value]) => value !== undefined));
}

/** Calls `onChange` when the theme may have changed: the system scheme, or `data-theme` on <html>. */
export function watchTheme(onChange: () => void): () => void {
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', onChange);
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
  return () => {
    media.removeEventListener('change', onChange);
    observer.disconnect();
  };
}
