import fs from 'node:fs';
import { isScalar, isSeq } from 'yaml';
import type { PermissionMode } from '../../shared/permission';
import { checkPermissionsMap, listTexts, loadSettingsDocument, permissionsList, saveSettingsDocument } from './settings-document';

/**
 * Edits of a settings file besides its rules: the default permission mode and `permissions.additionalDirectories`.
 * Same guarantees as the rule edits: comments kept, atomic writes, a broken file refused.
 */

/** Sets (or, with null, removes) `permissions.mode`. Returns false when the file already says so. */
export function setModeInFile(file: string, mode: PermissionMode | null): boolean {
  if (mode === null && !fs.existsSync(file)) return false;
  const doc = loadSettingsDocument(file);
  checkPermissionsMap(doc, file);
  const current = doc.getIn(['permissions', 'mode']);
  if ((current ?? null) === mode) return false;
  if (mode === null) doc.deleteIn(['permissions', 'mode']);
  else doc.setIn(['permissions', 'mode'], mode);
  saveSettingsDocument(file, doc);
  return true;
}

/** Adds a directory (as written) to `permissions.additionalDirectories`; false when it is already listed. */
export function addDirectoryToFile(file: string, dir: string): boolean {
  const doc = loadSettingsDocument(file);
  if (listTexts(doc, 'additionalDirectories').includes(dir)) return false;
  permissionsList(doc, file, 'additionalDirectories').add(doc.createNode(dir));
  saveSettingsDocument(file, doc);
  return true;
}

/** Removes a directory (every copy) from `permissions.additionalDirectories`; false when it was not listed. */
export function removeDirectoryFromFile(file: string, dir: string): boolean {
  if (!fs.existsSync(file)) return false;
  const doc = loadSettingsDocument(file);
  const seq = doc.getIn(['permissions', 'additionalDirectories'], true);
  if (!isSeq(seq)) return false;
  const before = seq.items.length;
  seq.items = seq.items.filter((item) => !(isScalar(item) && String(item.value) === dir));
  if (seq.items.length === before) return false;
  saveSettingsDocument(file, doc);
  return true;
}
