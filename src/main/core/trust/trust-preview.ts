import { parseDocument } from 'yaml';
import { lintRule } from '../permission/rules/lint-rule';
import type { TrustPreview } from '../../../shared/trust-contract';
import { parseSettingsText } from '../settings/parse-settings';
import { describeEntry, parseMcpServers } from '../settings/mcp-config';
import { INSTRUCTION_FILES, PROJECT_SETTINGS_FILES, readProjectFile } from '../fs/project-files';

import { projectAgents, projectSkills, type Discovered } from '../definitions/project-definitions';

export { loadInstructionFiles } from '../fs/project-files';

type Item<K extends keyof TrustPreview> = TrustPreview[K] extends (infer T)[] ? T : never;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : [];
}

/**
 * Every hook command in a `hooks:` value. Claude Code's shape is `{ Event: [{ matcher, hooks: [{ type, command }] }] }`;
 * other shapes are walked too, so a hook is never hidden from the person because its shape is unexpected.
 */
function hookCommands(hooks: unknown, file: string): Item<'hooks'>[] {
  const out: Item<'hooks'>[] = [];
  const walk = (v: unknown, label: string, depth: number): void => {
    if (depth > 10) return;
    if (typeof v === 'string') {
      out.push({ file, event: label || 'hook', command: v });
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) walk(x, label, depth + 1);
      return;
    }
    if (!isRecord(v)) return;
    const here = typeof v.matcher === 'string' && v.matcher ? `${label} (${v.matcher})` : label;
    const command = v.command ?? v.run ?? v.script;
    if (typeof command === 'string') {
      out.push({ file, event: here || 'hook', command });
      return;
    }
    if (typeof v.type === 'string' && !('hooks' in v)) {
      const body = typeof v.prompt === 'string' ? v.prompt : JSON.stringify(v);
      out.push({ file, event: here || 'hook', command: `[${v.type}] ${body}` });
      return;
    }
    for (const [key, x] of Object.entries(v)) {
      if (key === 'matcher') continue;
      walk(x, key === 'hooks' ? here : here ? `${here}.${key}` : key, depth + 1);
    }
  };
  walk(hooks, '', 0);
  return out;
}

/** `.json` files are strict JSON (a trailing comma is an error there, as in Claude Code); the others are YAML. */
function parseSettings(name: string, text: string): { ok: true; body: unknown } | { ok: false; reason: string } {
  if (name.endsWith('.json')) {
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch (err) {
      return { ok: false, reason: `not valid JSON: ${(err as Error).message}` };
    }
  }
  const doc = parseDocument(text);
  if (doc.errors.length) {
    const first = doc.errors[0];
    const line = first?.linePos?.[0]?.line;
    return { ok: false, reason: `not valid YAML${line ? ` (line ${line})` : ''}: ${first?.code ?? 'error'}` };
  }
  return { ok: true, body: doc.toJS() as unknown };
}

/**
 * What the project would load if trusted, read without running anything: allow-rules (with their text) and hooks
 * from the project and local settings (Gatehouse's and Claude Code's), additional directories and allowed network
 * domains they would add, its MCP servers (settings and `.mcp.json`), the instruction files that would join the
 * model's prompt, and its skills and sub-agents. Files that cannot be parsed are reported, not hidden.
 */
export async function trustPreview(projectRoot: string): Promise<TrustPreview> {
  const preview: TrustPreview = {
    root: projectRoot,
    allowRules: [],
    hooks: [],
    instructionFiles: [],
    allowedDomains: [],
    additionalDirectories: [],
    mcpServers: [],
    errors: [],
  };
  const settingsReads = await Promise.all(PROJECT_SETTINGS_FILES.map((name) => readProjectFile(projectRoot, name)));
  for (const [i, name] of PROJECT_SETTINGS_FILES.entries()) {
    const read = settingsReads[i]!;
    if (read.kind === 'missing') continue;
    if (read.kind === 'refused') {
      preview.errors.push({ file: read.path, reason: read.reason });
      continue;
    }
    const parsed = parseSettings(name, read.content);
    if (!parsed.ok) {
      preview.errors.push({ file: read.path, reason: parsed.reason });
      continue;
    }
    const body = parsed.body;
    if (body === null || body === undefined) continue;
    const claude = name.startsWith('.claude/');
    const checked = parseSettingsText(read.path, read.content, claude ? 'claude' : 'gatehouse');
    if (checked.ok) {
      for (const k of checked.keyProblems)
        (preview.keyProblems ??= []).push({
          file: read.path,
          line: k.line,
          key: k.key,
          suggestion: k.suggestion,
          reason: `${k.reason}: ${k.effect}`,
        });
    }
    if (!isRecord(body)) {
      preview.errors.push({ file: read.path, reason: 'expected a mapping at the top level' });
      continue;
    }
    const permissions = isRecord(body.permissions) ? body.permissions : {};
    for (const rule of strings(permissions.allow)) {
      const { error, warnings } = lintRule(rule, 'allow');
      const notes = error !== null ? [`not applied: ${error}`] : warnings;
      preview.allowRules.push({ file: read.path, rule, ...(notes.length ? { warnings: notes } : {}) });
    }
    for (const directory of strings(permissions.additionalDirectories))
      preview.additionalDirectories.push({ file: read.path, directory });
    if (body.hooks !== undefined) preview.hooks.push(...hookCommands(body.hooks, read.path));
    const sandbox = isRecord(body.sandbox) ? body.sandbox : {};
    const network = isRecord(sandbox.network) ? sandbox.network : {};
    for (const domain of strings(network.allowedDomains)) preview.allowedDomains.push({ file: read.path, domain });
    // Claude Code keeps MCP servers in .mcp.json, never in its settings files (as the settings loader reads them).
    if (!claude) addMcpServers(preview, read.path, body.mcpServers);
  }
  const mcpJson = await readProjectFile(projectRoot, '.mcp.json');
  if (mcpJson.kind === 'refused') preview.errors.push({ file: mcpJson.path, reason: mcpJson.reason });
  else if (mcpJson.kind === 'ok') {
    const parsed = parseSettings('.mcp.json', mcpJson.content);
    if (!parsed.ok) preview.errors.push({ file: mcpJson.path, reason: parsed.reason });
    else if (isRecord(parsed.body)) addMcpServers(preview, mcpJson.path, parsed.body.mcpServers);
    else preview.errors.push({ file: mcpJson.path, reason: 'expected { "mcpServers": { ... } }' });
  }
  for (const read of await Promise.all(INSTRUCTION_FILES.map((name) => readProjectFile(projectRoot, name)))) {
    if (read.kind === 'ok') preview.instructionFiles.push({ path: read.path, bytes: read.bytes });
    else if (read.kind === 'refused') preview.errors.push({ file: read.path, reason: read.reason });
  }
  const [skills, agents] = await Promise.all([projectSkills(projectRoot), projectAgents(projectRoot)]);
  preview.skills = listed(skills, preview);
  preview.agents = listed(agents, preview);
  return preview;
}

/** A file's `mcpServers` block for the preview: each server's command line or URL; a malformed entry is a problem. */
function addMcpServers(preview: TrustPreview, file: string, block: unknown): void {
  const parsed = parseMcpServers(block);
  for (const s of parsed.servers)
    (preview.mcpServers ??= []).push({
      file,
      name: s.name,
      transport: s.entry.type === 'http' ? 'http' : 'stdio',
      shown: describeEntry(s.entry),
    });
  for (const p of parsed.problems) preview.errors.push({ file, reason: `${p.key}: ${p.reason} (not loaded)` });
}

/** Skills or agents for the preview: each with its warnings; definitions that are not offered go to `errors`. */
function listed(found: Discovered<{ name: string; description: string; path: string }>, preview: TrustPreview) {
  for (const p of found.problems) if (p.severity === 'error') preview.errors.push({ file: p.path, reason: p.reason });
  return found.items.map((item) => {
    const warnings = found.problems
      .filter((p) => p.severity === 'warning' && p.path === item.path)
      .map((p) => p.reason);
    return {
      file: item.path,
      name: item.name,
      description: item.description,
      ...(warnings.length ? { warnings } : {}),
    };
  });
}
