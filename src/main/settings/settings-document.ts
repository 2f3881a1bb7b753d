import fs from 'node:fs';
import { Document, isMap, isScalar, parseDocument } from 'yaml';
import type { YAMLSeq } from 'yaml';
import { isSeq } from 'yaml';
import { writeFileAtomic } from '../fs/atomic-write';

/**
 * One Gatehouse settings file opened for editing with yaml's Document API, so comments and layout survive an edit,
 * and saved atomically (temp file + rename). A broken file is refused with its path, never overwritten.
 */

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

export function loadSettingsDocument(file: string): Document {
  const text = readOrEmpty(file);
  const doc = text.trim() ? parseDocument(text) : new Document({});
  if (doc.errors.length > 0) throw new Error(`${file} is not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); fix it before editing it here`);
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) doc.contents = doc.createNode({});
  if (!isMap(doc.contents)) throw new Error(`${file}: the top level must be a mapping`);
  return doc;
}

export function saveSettingsDocument(file: string, doc: Document): void {
  writeFileAtomic(file, doc.toString());
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
