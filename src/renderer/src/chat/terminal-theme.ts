import type { ITheme } from '@xterm/xterm';

const ANSI_NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;

/**
 * The terminal's colours from the CSS variables of the current theme (code-theme.css), read on `el`. Each variable is a
 * light-dark() pair, so it is resolved through a hidden probe inside `el` (same color-scheme) and handed over as #rrggbb.
 */
export function terminalTheme(el: Element): ITheme {
  const style = getComputedStyle(el);
  const probe = el.ownerDocument.createElement('span');
  probe.style.display = 'none';
  el.appendChild(probe);
  const v = (name: string): string | undefined => {
    if (!style.getPropertyValue(name).trim()) return undefined;
    probe.style.color = `var(${name})`;
    return hexColor(getComputedStyle(probe).color);
  };
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
  probe.remove();
  return Object.fromEntries(Object.entries(theme).filter(([, value]) => value !== undefined));
}

/** `rgb(13, 17, 23)` as `#0d1117`; any other form (a colour with alpha) as it is. */
function hexColor(computed: string): string {
  const rgb = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(computed);
  return rgb
    ? `#${rgb
        .slice(1)
        .map((c) => Number(c).toString(16).padStart(2, '0'))
        .join('')}`
    : computed;
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
