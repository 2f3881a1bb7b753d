/**
 * Whether a link's text reads like an address other than the one it opens. A person reading "https://bank.example"
 * believes that is where the link goes; when the target is elsewhere (another host, another path, a look-alike
 * host that normalises to punycode) the real target must be shown beside the text.
 */

const ADDRESS_LIKE =
  /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.|mailto:)?[^\s/@:]+(?:\.[^\s/@:.]+)+(?::\d+)?(?:[/?#]\S*)?$|^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

/** Endings that make `README.md` or `setup.py` a file name rather than a host (even where they are also top-level domains). */
const FILE_ENDINGS = new Set(
  'md markdown txt rst py pyc sh bash zsh rs js mjs cjs ts tsx jsx go rb pl php java kt swift c h cc cpp hpp cs json yml yaml toml ini cfg conf lock log xml html htm css scss svg png jpg jpeg gif webp pdf zip gz tgz tar bz2 xz wasm so dll exe bin'.split(
    ' ',
  ),
);

/** The text as a URL when it reads like one (a bare `example.com/x` counts, with the target's scheme), else null. */
function addressInText(text: string, target: URL): URL | null {
  const t = text.trim();
  if (t === '' || /\s/.test(t) || !ADDRESS_LIKE.test(t)) return null;
  const bare = !/^[a-z][a-z0-9+.-]*:/i.test(t) && !/^www\./i.test(t);
  if (bare && !t.includes('/') && FILE_ENDINGS.has(t.split('.').pop()?.toLowerCase() ?? '')) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(t)
    ? t
    : `${target.protocol === 'mailto:' ? 'https:' : target.protocol}//${t}`;
  try {
    return new URL(withScheme);
  } catch {
    return null;
  }
}

const withoutTrailingSlash = (s: string): string => s.replace(/\/+$/, '');

/**
 * True when `text` looks like an address and `href` goes elsewhere: another scheme, host or port, or (when the text
 * names a path) another path, query or fragment.
 */
export function linkTextMisleads(text: string, href: string): boolean {
  let target: URL;
  try {
    target = new URL(href);
  } catch {
    return false;
  }
  const shown = addressInText(text, target);
  if (!shown) return false;
  if (shown.protocol === 'mailto:' || target.protocol === 'mailto:')
    return withoutTrailingSlash(shown.href) !== withoutTrailingSlash(target.href);
  if (shown.host !== target.host) return true;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text.trim()) && shown.protocol !== target.protocol) return true;
  const namesMore = shown.pathname !== '/' || shown.search !== '' || shown.hash !== '';
  return (
    namesMore &&
    withoutTrailingSlash(shown.pathname + shown.search + shown.hash) !==
      withoutTrailingSlash(target.pathname + target.search + target.hash)
  );
}
