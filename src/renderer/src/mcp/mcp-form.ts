import type { McpServerEntry } from '../../../shared/mcp-contract';

/** The MCP server dialog's fields, as typed (lists one per line, or separated by spaces and commas). */
export interface McpForm {
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  /** One argument per line, kept exactly (an argument may hold spaces). */
  args: string;
  /** NAME=value per line. */
  env: string;
  envAllow: string;
  domains: string;
  url: string;
  /** Name: value per line. */
  headers: string;
}

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);
const lines = (text: string): string[] => text.split('\n').map((l) => l.replace(/\r$/, ''));

/** The form for an entry (or an empty one). */
export function formFromEntry(name: string, entry: McpServerEntry | null): McpForm {
  const form: McpForm = {
    name,
    transport: 'stdio',
    command: '',
    args: '',
    env: '',
    envAllow: '',
    domains: '',
    url: '',
    headers: '',
  };
  if (!entry) return form;
  if (entry.type === 'http')
    return {
      ...form,
      transport: 'http',
      url: entry.url,
      headers: Object.entries(entry.headers ?? {})
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
    };
  return {
    ...form,
    command: entry.command,
    args: (entry.args ?? []).map((a) => (a === '' ? '""' : a)).join('\n'),
    env: Object.entries(entry.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    envAllow: (entry.envAllowList ?? []).join(' '),
    domains: (entry.allowedDomains ?? []).join(' '),
  };
}

/**
 * The entry the form describes, or what is wrong with it. Only the form's own shape is checked here (a line without
 * "=", say); main checks the entry in full (names, commands, URLs). A field the form does not show (`timeout`) is kept
 * from the entry being edited.
 */
export function entryFromForm(
  form: McpForm,
  before: McpServerEntry | null,
): { ok: true; entry: McpServerEntry } | { ok: false; error: string } {
  const timeout = before?.timeout !== undefined ? { timeout: before.timeout } : {};
  if (form.transport === 'http') {
    const headers: Record<string, string> = {};
    for (const line of lines(form.headers)) {
      if (!line.trim()) continue;
      const at = line.indexOf(':');
      if (at <= 0) return { ok: false, error: `Headers: "${line}" is not Name: value` };
      headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
    return {
      ok: true,
      entry: { type: 'http', url: form.url.trim(), ...(Object.keys(headers).length ? { headers } : {}), ...timeout },
    };
  }
  const env: Record<string, string> = {};
  for (const line of lines(form.env)) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    if (at <= 0) return { ok: false, error: `Environment variables: "${line}" is not NAME=value` };
    env[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  // Blank lines are not arguments: an empty argument is written as "" on its own line.
  const args = lines(form.args)
    .filter((l) => l !== '')
    .map((l) => (l === '""' ? '' : l));
  const envAllowList = words(form.envAllow);
  const allowedDomains = words(form.domains);
  return {
    ok: true,
    entry: {
      command: form.command,
      ...(args.length ? { args } : {}),
      ...(Object.keys(env).length ? { env } : {}),
      ...(envAllowList.length ? { envAllowList } : {}),
      ...(allowedDomains.length ? { allowedDomains } : {}),
      ...timeout,
    },
  };
}
