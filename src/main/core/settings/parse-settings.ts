import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { EMPTY_SETTINGS, flattenHooks, SettingsFileSchema, type FileSettings } from './settings-schema';
import { parseMcpServers } from './mcp-config';
import { findUnknownKeys, type SettingsFormat, type SettingsKeyProblem } from './unknown-keys';
import { jsonSyntaxError, yamlOnlyKeyProblems } from './json-settings';
import { isJsonSettingsFile } from './settings-locations';

export type { SettingsKeyProblem } from './unknown-keys';

/** Why a settings file was not applied: its path, the line (1-based, when known) and the reason. */
export interface SettingsFileError {
  file: string;
  line: number | null;
  column: number | null;
  reason: string;
  /** What it means for the rules, when it is not the usual (the last good version, or unknown rules). */
  effect?: string;
  /** The file Gatehouse reads instead (a misplaced file: `~/.gatehouse/settings.json`). */
  suggestion?: string;
}

/** A parse that worked: the settings, and the unknown keys found (reported; they never loosen anything). */
export type SettingsParseResult =
  | { ok: true; settings: FileSettings; keyProblems: SettingsKeyProblem[] }
  | { ok: false; error: SettingsFileError };

function lineOfPath(
  doc: Document,
  counter: LineCounter,
  issuePath: readonly PropertyKey[],
): { line: number; col: number } | null {
  const keys = issuePath.filter((k): k is string | number => typeof k === 'string' || typeof k === 'number');
  for (let n = keys.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(keys.slice(0, n), true);
    if (isNode(node) && node.range) {
      const pos = counter.linePos(node.range[0]);
      return { line: pos.line, col: pos.col };
    }
  }
  return null;
}

/**
 * Parses one settings file's text: YAML, or JSON for a file named `*.json` (checked as strict JSON first, so its
 * errors are JSON errors; then read like YAML, of which JSON is a subset). Never throws.
 */
export function parseSettingsText(
  file: string,
  text: string,
  format: SettingsFormat = 'gatehouse',
): SettingsParseResult {
  const json = isJsonSettingsFile(file);
  if (json) {
    const bad = jsonSyntaxError(text);
    if (bad) return { ok: false, error: { file, ...bad } };
  }
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const pos = yamlError.linePos?.[0] ?? counter.linePos(yamlError.pos[0]);
    return { ok: false, error: { file, line: pos.line, column: pos.col, reason: yamlError.message.split('\n')[0]! } };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return {
      ok: false,
      error: { file, line: null, column: null, reason: err instanceof Error ? err.message : String(err) },
    };
  }
  if (value === null || value === undefined) return { ok: true, settings: { ...EMPTY_SETTINGS }, keyProblems: [] };
  const parsed = SettingsFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const pos = lineOfPath(doc, counter, issue.path);
    const where = issue.path.length ? issue.path.map(String).join('.') : '(top level)';
    return {
      ok: false,
      error: { file, line: pos?.line ?? null, column: pos?.col ?? null, reason: `${where}: ${issue.message}` },
    };
  }
  const p = parsed.data.permissions ?? {};
  const { problems, recovered } = findUnknownKeys(file, doc, counter, format);
  if (json && format === 'gatehouse') problems.push(...yamlOnlyKeyProblems(file, doc, counter));
  // Claude Code keeps MCP servers in .mcp.json and ~/.claude.json, never in its settings files.
  const mcp = format === 'gatehouse' ? parseMcpServers(parsed.data.mcpServers) : { servers: [], problems: [] };
  for (const p of mcp.problems) {
    const pos = lineOfPath(doc, counter, p.path);
    problems.push({
      file,
      line: pos?.line ?? null,
      column: pos?.col ?? null,
      key: p.key,
      suggestion: null,
      reason: `${p.key}: ${p.reason}`,
      effect: 'this MCP server does not load until the entry is fixed',
    });
  }
  const userOnlyKeys = format === 'gatehouse' ? userOnlyKeysOf(doc, counter) : [];
  return {
    ok: true,
    settings: {
      mode: p.mode,
      allow: p.allow ?? [],
      ask: [...(p.ask ?? []), ...recovered.ask],
      deny: [...(p.deny ?? []), ...recovered.deny],
      additionalDirectories: p.additionalDirectories ?? [],
      hooks: flattenHooks(parsed.data.hooks),
      ...(mcp.servers.length ? { mcpServers: mcp.servers } : {}),
      ...(userOnlyKeys.length ? { userOnlyKeys } : {}),
    },
    keyProblems: problems,
  };
}

/** The keys only the person's settings and the policy may set (settings-schema.ts `userOnlyKeys`), where they are. */
const USER_ONLY_KEYS = [['network', 'caFile']] as const;

function userOnlyKeysOf(doc: Document, counter: LineCounter): NonNullable<FileSettings['userOnlyKeys']> {
  return USER_ONLY_KEYS.filter((keyPath) => doc.hasIn(keyPath)).map((keyPath) => {
    const pos = lineOfPath(doc, counter, keyPath);
    return { key: keyPath.join('.'), line: pos?.line ?? null, column: pos?.col ?? null };
  });
}
