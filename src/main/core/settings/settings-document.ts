import fs from 'node:fs';
import { Document, isMap, isScalar, parseDocument } from 'yaml';
import type { YAMLSeq } from 'yaml';
import { isSeq } from 'yaml';
import { writeFileAtomicAsync } from '../fs/atomic-write';
import { isMissing, MAX_SETTINGS_BYTES, readRegularFile } from '../fs/read-regular-file';
import { withStateLock } from '../fs/state-lock';

/**
 * One Gatehouse settings file opened for editing with yaml's Document API, so comments and layout survive an edit,
 * and saved atomically (temp file + rename) under the file's cross-process lock. A broken file is refused with its
 * path, never overwritten; so is a file that is not a regular file or is over the settings size limit.
 */

async function readOrEmpty(file: string): Promise<string> {
  try {
    return await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' });
  } catch (err) {
    if (isMissing(err)) return '';
    throw err;
  }
}

/** The document of a settings file's text ('' for none); throws on text that is not a YAML mapping. */
function settingsDocumentOf(file: string, text: string): Document {
  const doc = text.trim() ? parseDocument(text) : new Document({});
  if (doc.errors.length > 0)
    throw new Error(
      `${file} is not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); fix it before editing it here`,
    );
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null))
    doc.contents = doc.createNode({});
  if (!isMap(doc.contents)) throw new Error(`${file}: the top level must be a mapping`);
  return doc;
}

export async function loadSettingsDocument(file: string): Promise<Document> {
  return settingsDocumentOf(file, await readOrEmpty(file));
}

export interface EditOptions {
  /** The written file's mode (0600 for the user's settings, which may hold an API key). */
  mode?: number;
  /** When the file does not exist: do nothing and return false (a removal), instead of editing an empty document. */
  skipMissing?: boolean;
}

/**
 * Read-modify-write of one settings file under its lock: `edit` changes the document and returns whether it did;
 * only then is the file written (atomically). Returns what `edit` returned.
 */
export async function editSettingsDocument(
  file: string,
  edit: (doc: Document) => boolean,
  options: EditOptions = {},
): Promise<boolean> {
  if (options.skipMissing && !(await exists(file))) return false;
  return withStateLock(file, async () => {
    const doc = await loadSettingsDocument(file);
    if (!edit(doc)) return false;
    await writeFileAtomicAsync(file, doc.toString(), options.mode);
    return true;
  });
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** `permissions` must be a mapping (or absent / empty) before anything is written below it. */
export function checkPermissionsMap(doc: Document, file: string): void {
  const perms = doc.getIn(['permissions'], true);
  if (perms !== undefined && perms !== null && !isMap(perms) && !(isScalar(perms) && perms.value === null)) {
    throw new Error(`${file}: "permissions" must be a mapping`);
  }
}

/** The list at `permissions.<key>`, created when missing; an existing non-list is refused. */
export function permissionsList(doc: Document, file: string, key: string): YAMLSeq {
  checkPermissionsMap(doc, file);
  const seq = doc.getIn(['permissions', key], true);
  if (isSeq(seq)) return seq;
  if (seq === undefined || (isScalar(seq) && seq.value === null)) {
    doc.setIn(['permissions', key], doc.createNode([]));
    const created = doc.getIn(['permissions', key], true);
    if (isSeq(created)) return created;
  }
  throw new Error(`${file}: permissions.${key} must be a list`);
}

/** The texts of the scalar items of `permissions.<key>` ('' for anything else). */
export function listTexts(doc: Document, key: string): string[] {
  const seq = doc.getIn(['permissions', key], true);
  if (!isSeq(seq)) return [];
  return seq.items.map((item) => (isScalar(item) ? String(item.value) : ''));
}
