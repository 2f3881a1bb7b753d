import fs from 'node:fs';
import { isScalar, isSeq } from 'yaml';
import type { RuleBehavior } from '../../shared/permission';
import { parseRule } from '../permission/rules/parse-rule';
import { listTexts, loadSettingsDocument, permissionsList, saveSettingsDocument } from './settings-document';

function parsedText(rule: string): string {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(`rule "${rule}" does not parse: ${parsed.reason}`);
  return parsed.rule.text;
}

/**
 * Adds a rule to a settings YAML file with yaml's Document API (comments and layout preserved), atomically.
 * Returns false when the rule was already there. Throws on a rule that does not parse or a broken file.
 */
export function addRuleToFile(file: string, behavior: RuleBehavior, rule: string): boolean {
  const text = parsedText(rule);
  const doc = loadSettingsDocument(file);
  if (listTexts(doc, behavior).includes(text)) return false;
  permissionsList(doc, file, behavior).add(doc.createNode(text));
  saveSettingsDocument(file, doc);
  return true;
}

/** Whether a settings file holds this rule under this behaviour. */
export function fileHasRule(file: string, behavior: RuleBehavior, rule: string): boolean {
  if (!fs.existsSync(file)) return false;
  return listTexts(loadSettingsDocument(file), behavior).some((t) => t.trim() === rule.trim());
}

/** Removes a rule (every copy of it) from a settings file. Returns false when it was not there. */
export function removeRuleFromFile(file: string, behavior: RuleBehavior, rule: string): boolean {
  if (!fs.existsSync(file)) return false;
  const doc = loadSettingsDocument(file);
  const seq = doc.getIn(['permissions', behavior], true);
  if (!isSeq(seq)) return false;
  const want = rule.trim();
  const before = seq.items.length;
  seq.items = seq.items.filter((item) => !(isScalar(item) && String(item.value).trim() === want));
  if (seq.items.length === before) return false;
  saveSettingsDocument(file, doc);
  return true;
}

/**
 * Edits a rule in place in one file, in one atomic write: same behaviour, the item's text changes where it stands
 * (its comment stays); another behaviour, it leaves one list for the other. Returns false when `from` is not there.
 */
export function replaceRuleInFile(file: string, from: { behavior: RuleBehavior; rule: string }, to: { behavior: RuleBehavior; rule: string }): boolean {
  const text = parsedText(to.rule);
  if (!fs.existsSync(file)) return false;
  const doc = loadSettingsDocument(file);
  const source = doc.getIn(['permissions', from.behavior], true);
  if (!isSeq(source)) return false;
  const want = from.rule.trim();
  const index = source.items.findIndex((item) => isScalar(item) && String(item.value).trim() === want);
  if (index < 0) return false;
  if (from.behavior === to.behavior && want === text) return true; // nothing to change
  const already = listTexts(doc, to.behavior).includes(text);
  if (from.behavior === to.behavior && !already) {
    const item = source.items[index];
    if (isScalar(item)) item.value = text;
  } else {
    source.items = source.items.filter((item) => !(isScalar(item) && String(item.value).trim() === want));
    if (!already) permissionsList(doc, file, to.behavior).add(doc.createNode(text));
  }
  saveSettingsDocument(file, doc);
  return true;
}
