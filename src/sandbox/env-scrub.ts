/** Environment scrubbing: commands never see the worker's secrets (API keys, tokens, passwords). */

const SECRET_NAME_PATTERNS: readonly RegExp[] = [/_KEY$/i, /_TOKEN$/i, /_SECRET$/i, /PASSWORD/i, /^ANTHROPIC_/i];

export function looksSecret(name: string): boolean {
  return SECRET_NAME_PATTERNS.some((p) => p.test(name));
}

/**
 * A copy of `env` without variables whose names look secret (`*_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD*`,
 * `ANTHROPIC_*`, case-insensitive), except names in `allowList` (compared case-insensitively).
 */
export function scrubEnv(
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
  allowList: readonly string[] = [],
): Record<string, string> {
  const allowed = new Set(allowList.map((n) => n.toUpperCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (looksSecret(name) && !allowed.has(name.toUpperCase())) continue;
    out[name] = value;
  }
  return out;
}
