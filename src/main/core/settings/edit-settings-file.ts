import { isMap, isScalar, isSeq } from 'yaml';
import type { PermissionMode } from '../../../shared/permission';
import { checkPermissionsMap, editSettingsDocument, listTexts, permissionsList } from './settings-document';

/**
 * Edits of a settings file besides its rules: the default permission mode and `permissions.additionalDirectories`.
 * Same guarantees as the rule edits: comments kept, atomic writes under the file's lock, a broken file refused.
 */

/** Sets (or, with null, removes) `permissions.mode`. Resolves false when the file already says so. */
export async function setModeInFile(file: string, mode: PermissionMode | null): Promise<boolean> {
  return editSettingsDocument(
    file,
    (doc) => {
      checkPermissionsMap(doc, file);
      const current = doc.getIn(['permissions', 'mode']);
      if ((current ?? null) === mode) return false;
      if (mode === null) doc.deleteIn(['permissions', 'mode']);
      else doc.setIn(['permissions', 'mode'], mode);
      return true;
    },
    { skipMissing: mode === null },
  );
}

/** Adds a directory (as written) to `permissions.additionalDirectories`; false when it is already listed. */
export async function addDirectoryToFile(file: string, dir: string): Promise<boolean> {
  return editSettingsDocument(file, (doc) => {
    if (listTexts(doc, 'additionalDirectories').includes(dir)) return false;
    permissionsList(doc, file, 'additionalDirectories').add(doc.createNode(dir));
    return true;
  });
}

/** Removes a directory (every copy) from `permissions.additionalDirectories`; false when it was not listed. */
export async function removeDirectoryFromFile(file: string, dir: string): Promise<boolean> {
  return editSettingsDocument(
    file,
    (doc) => {
      const seq = doc.getIn(['permissions', 'additionalDirectories'], true);
      if (!isSeq(seq)) return false;
      const before = seq.items.length;
      seq.items = seq.items.filter((item) => !(isScalar(item) && String(item.value) === dir));
      return seq.items.length !== before;
    },
    { skipMissing: true },
  );
}

/** Sets `mcpServers.<name>` to `entry`; false when the file already has a server of that name (never replaced). */
export async function addMcpServerToFile(file: string, name: string, entry: Record<string, unknown>): Promise<boolean> {
  return editSettingsDocument(file, (doc) => {
    const block = doc.get('mcpServers', true);
    if (block !== undefined && block !== null && !isMap(block))
      throw new Error(`${file}: mcpServers must be a mapping; fix it before editing it here`);
    if (doc.hasIn(['mcpServers', name])) return false;
    doc.setIn(['mcpServers', name], doc.createNode(entry));
    return true;
  });
}

/** Removes `mcpServers.<name>`; false when the file has none. */
export async function removeMcpServerFromFile(file: string, name: string): Promise<boolean> {
  return editSettingsDocument(file, (doc) => doc.deleteIn(['mcpServers', name]), { skipMissing: true });
}

/** Replaces the entry of `mcpServers.<name>` (kept in its place, comments around it kept); false when there is none. */
export async function replaceMcpServerInFile(
  file: string,
  name: string,
  entry: Record<string, unknown>,
): Promise<boolean> {
  return editSettingsDocument(
    file,
    (doc) => {
      if (!doc.hasIn(['mcpServers', name])) return false;
      doc.setIn(['mcpServers', name], doc.createNode(entry));
      return true;
    },
    { skipMissing: true },
  );
}
