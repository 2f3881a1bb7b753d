const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The address a link in the model's text may point to: an absolute http(s) or mailto URL, normalised; anything else
 * (javascript:, data:, file:, relative paths, garbage) is null, and the link renders inert.
 */
export function safeLinkUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
}
