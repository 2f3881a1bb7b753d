import { parseDocument } from 'yaml';

/**
 * A Markdown file with YAML front matter (`---` line, YAML, `---` line, body), as Claude Code's SKILL.md and agent
 * files are written. The front matter must be a mapping; a problem says which line.
 */
export function splitFrontMatter(
  text: string,
): { ok: true; data: Record<string, unknown>; body: string } | { ok: false; reason: string } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalized.startsWith('---\n'))
    return { ok: false, reason: 'no front matter: the file must start with a "---" line, YAML, and a "---" line' };
  const end = normalized.indexOf('\n---', 3);
  const closing = end === -1 ? -1 : normalized.slice(end + 4).match(/^[ \t]*(\n|$)/) ? end : -1;
  if (closing === -1) return { ok: false, reason: 'the front matter is not closed by a "---" line' };
  const yamlText = normalized.slice(4, closing + 1);
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    return {
      ok: false,
      reason: `the front matter is not valid YAML${line ? ` (line ${line + 1})` : ''}: ${error.message.split('\n')[0]}`,
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 10 });
  } catch (err) {
    return {
      ok: false,
      reason: `the front matter cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, reason: 'the front matter must be a mapping (name: ..., description: ...)' };
  const rest = normalized.slice(closing + 4);
  return { ok: true, data: data as Record<string, unknown>, body: rest.replace(/^[ \t]*\n/, '').trim() };
}

/** `a, b` or `[a, b]` (Claude Code accepts both for tool lists) as a list of entries; undefined when absent. */
export function toolList(value: unknown): string[] | undefined | { problem: string } {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string')
    return value
      .split(/,(?![^(]*\))/)
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v) => v.trim());
  return { problem: 'must be a comma-separated string or a list of tool names' };
}
