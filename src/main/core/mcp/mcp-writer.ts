/**
 * Writing MCP servers into Gatehouse's own settings files: one writer for `gatehouse mcp add|remove` and the MCP
 * page. Everything is checked here, whoever asks: the name (`mcp__<server>__<tool>` must split back), the entry's
 * shape (zod, unknown fields refused) and what a person surely did not mean (mcpEntryProblems). Only the scope's
 * settings.yaml is written (yaml Document API: comments kept, atomic write under the file's lock); the file is never
 * named by the caller, so no request can reach another file. A local server's file is kept out of git.
 */
import { GatehouseError } from '../../../shared/errors';
import { mcpEntryProblems, serverNameProblem } from '../../../shared/mcp-contract';
import type { McpServerEntry } from '../../../shared/mcp-contract';
import { McpScopeSchema, type McpScope } from '../../../shared/mcp-view-contract';
import { parseMcpServers } from '../settings/mcp-config';
import { addMcpServerToFile, removeMcpServerFromFile, replaceMcpServerInFile } from '../settings/edit-settings-file';
import { ensureGitExcluded } from '../settings/git-exclude';
import { loadSettingsDocument } from '../settings/settings-document';
import { scopeFile } from '../settings/settings-locations';

export interface McpWritePlace {
  projectRoot: string;
  configDir: string;
}

/** The name and entry, checked; a BAD_REQUEST error names every problem. */
export function checkedServer(name: string, raw: unknown): McpServerEntry {
  const badName = serverNameProblem(name);
  if (badName) throw new GatehouseError('BAD_REQUEST', badName);
  // The loader's own check (the transport's fields, one precise reason), so the writer accepts what the loader loads.
  const parsed = parseMcpServers({ [name]: raw });
  const entry = parsed.servers[0]?.entry;
  if (!entry) {
    const problem = parsed.problems[0];
    throw new GatehouseError('BAD_REQUEST', problem ? `${problem.key}: ${problem.reason}` : 'invalid entry');
  }
  const problems = mcpEntryProblems(entry);
  if (problems.length) throw new GatehouseError('BAD_REQUEST', problems.join('; '));
  return entry;
}

/** A settings edit that failed (a broken file is refused, never overwritten): its message, as a BAD_REQUEST. */
async function edit<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof GatehouseError) throw err;
    throw new GatehouseError('BAD_REQUEST', err instanceof Error ? err.message : String(err));
  }
}

/** The scope's settings.yaml; anything but user, project or local is refused (never a path of the caller's). */
function fileOf(scope: McpScope, place: McpWritePlace): string {
  if (!McpScopeSchema.safeParse(scope).success)
    throw new GatehouseError('BAD_REQUEST', `scope must be user, project or local (got ${JSON.stringify(scope)})`);
  return scopeFile(scope, place.projectRoot, place.configDir);
}

async function afterWrite(scope: McpScope, file: string, place: McpWritePlace): Promise<void> {
  if (scope === 'local') await ensureGitExcluded(place.projectRoot, file);
}

/** Adds a server to the scope's settings.yaml; CONFLICT-like BAD_REQUEST when that file already has the name. */
export async function addMcpServer(
  place: McpWritePlace,
  server: { name: string; scope: McpScope; entry: unknown },
): Promise<{ file: string }> {
  const entry = checkedServer(server.name, server.entry);
  const file = fileOf(server.scope, place);
  if (!(await edit(() => addMcpServerToFile(file, server.name, entry))))
    throw new GatehouseError('BAD_REQUEST', `${file} already has a server "${server.name}" (remove it first)`);
  await afterWrite(server.scope, file, place);
  return { file };
}

/** Removes a server from the scope's settings.yaml; NOT_FOUND when it is not there. */
export async function removeMcpServer(
  place: McpWritePlace,
  server: { name: string; scope: McpScope },
): Promise<{ file: string }> {
  const file = fileOf(server.scope, place);
  if (!(await edit(() => removeMcpServerFromFile(file, server.name))))
    throw new GatehouseError('NOT_FOUND', `${file} has no server "${server.name}"`);
  return { file };
}

/**
 * Replaces a server. In place when its name and scope stay; else written to its new place first and only then removed
 * from the old one, so a failure never loses it.
 */
export async function updateMcpServer(
  place: McpWritePlace,
  from: { name: string; scope: McpScope },
  to: { name: string; scope: McpScope; entry: unknown },
): Promise<{ file: string }> {
  const entry = checkedServer(to.name, to.entry);
  const oldFile = fileOf(from.scope, place);
  if (from.name === to.name && from.scope === to.scope) {
    if (!(await edit(() => replaceMcpServerInFile(oldFile, to.name, entry))))
      throw new GatehouseError('NOT_FOUND', `${oldFile} has no server "${from.name}"`);
    return { file: oldFile };
  }
  const current = await edit(() => loadSettingsDocument(oldFile));
  if (!current.hasIn(['mcpServers', from.name]))
    throw new GatehouseError('NOT_FOUND', `${oldFile} has no server "${from.name}"`);
  const { file } = await addMcpServer(place, { ...to, entry });
  await removeMcpServer(place, from);
  return { file };
}
