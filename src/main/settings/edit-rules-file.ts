import fs from 'node:fs';
import { isMap, isSeq, isScalar, parseDocument, Document } from 'yaml';
import type { RuleBehavior } from '../../shared/permission';
import { writeFileAtomic } from '../fs/atomic-write';
import { parseRule } from '../permission/rules/parse-rule';

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

function loadDocument(file: string): Document {
  const text = readOrEmpty(file);
  const doc = text.trim() ? parseDocument(text) : new Document({});
  if (doc.errors.length > 0) throw new Error(`${file} is not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); fix it before editing rules`);
  if (doc.contents !== null && !isMap(doc.contents)) throw new Error(`${file}: the top level must be a mapping`);
  if (doc.contents === null) doc.contents = doc.createNode({});
  return doc;
}

function ruleTexts(doc: Document, behavior: RuleBehavior): string[] {
  const seq = doc.getIn(['permissions', behavior], true);
  if (!isSeq(seq)) return [];
  return seq.items.map((item) => (isScalar(item) ? String(item.value) : ''));
}

/**
 * Adds a rule to a settings YAML file with yaml's Document API (comments and layout preserved), atomically.
 * Returns false when the rule was already there. Throws on a rule that does not parse or a broken file.
 */
export function addRuleToFile(file: string, behavior: RuleBehavior, rule: string): boolean {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(`rule "${rule}" does not parse: ${parsed.reason}`);
  const text = parsed.rule.text;
  const doc = loadDocument(file);
  if (ruleTexts(doc, behavior).includes(text)) return false;
  const perms = doc.getIn(['permissions'], true);
  if (perms !== undefined && perms !== null && !isMap(perms) && !(isScalar(perms) && perms.value === null)) {
    throw new Error(`${file}: "permissions" must be a mapping`);
  }
  const seq = doc.getIn(['permissions', behavior], true);
  if (isSeq(seq)) seq.add(doc.createNode(text));
  else if (seq === undefined || (isScalar(seq) && seq.value === null)) doc.setIn(['permissions', behavior], doc.createNode([text]));
  else throw new Error(`${file}: permissions.${behavior} must be a list`);
  writeFileAtomic(file, doc.toString());
  return true;
}

/** Removes a rule (every copy of it) from a settings file. Returns false when it was not there. */
export function removeRuleFromFile(file: string, behavior: RuleBehavior, rule: string): boolean {
  if (!fs.existsSync(file)) return false;
  const doc = loadDocument(file);
  const seq = doc.getIn(['permissions', behavior], true);
  if (!isSeq(seq)) return false;
  const want = rule.trim();
  const before = seq.items.length;
  seq.items = seq.items.filter((item) => !(isScalar(item) && String(item.value).trim() === want));
  if (seq.items.length === before) return false;
  writeFileAtomic(file, doc.toString());
  return true;
}
