/**
 * Claude Code's matcher: empty or `*` matches everything; a plain name or `A|B` list matches those names exactly; any
 * other text is a regular expression tested against the name (`Edit|Write`, `Notebook.*`, `mcp__.*`). Case-sensitive.
 * A Gatehouse hook may name Gatehouse's tools (`run_command`) or Claude Code's (`Bash`): both names are tried.
 */
export type CompiledMatcher = { ok: true; test(names: readonly string[]): boolean } | { ok: false; reason: string };

const PLAIN_LIST = /^[A-Za-z0-9_| ]+$/;

export function compileMatcher(matcher: string): CompiledMatcher {
  const m = matcher.trim();
  if (m === '' || m === '*') return { ok: true, test: () => true };
  if (PLAIN_LIST.test(m)) {
    const names = new Set(
      m
        .split('|')
        .map((n) => n.trim())
        .filter(Boolean),
    );
    return { ok: true, test: (candidates) => candidates.some((c) => names.has(c)) };
  }
  try {
    const re = new RegExp(m);
    return { ok: true, test: (candidates) => candidates.some((c) => re.test(c)) };
  } catch (err) {
    return { ok: false, reason: `matcher "${matcher}" is not a valid regular expression: ${(err as Error).message}` };
  }
}
