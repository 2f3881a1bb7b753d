import { isScalar, isSeq } from 'yaml';
import type { RuleBehavior } from '../../../shared/permission';
import { parseRule } from '../rule-syntax/parse-rule';
import { editSettingsDocument, listTexts, loadSettingsDocument, permissionsList } from './settings-document';

function parsedText(rule: string): string {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(`rule "${rule}" does not parse: ${parsed.reason}`);
  return parsed.rule.text;
}

/**
 * Adds a rule to a settings YAML file with yaml's Document API (comments and layout preserved), atomically, under the
 * file's lock (parallel writers lose nothing). Resolves false when the rule was already there. Rejects a rule that
 * does not parse or a broken file.
 */
export async function addRuleToFile(file: string, behavior: RuleBehavior, rule: string): Promise<boolean> {
  const text = parsedText(rule);
  return editSettingsDocument(file, (doc) => {
    if (listTexts(doc, behavior).includes(text)) return false;
    permissionsList(doc, file, behavior).add(doc.createNode(text));
    return true;
  });
}

/** Whether a settings file holds this rule under this behaviour. */
export async function fileHasRule(file: string, behavior: RuleBehavior, rule: string): Promise<boolean> {
  return listTexts(await loadSettingsDocument(file), behavior).some((t) => t.trim() === rule.trim());
}

/** Removes a rule (every copy of it) from a settings file. Resolves false when it was not there. */
export async function removeRuleFromFile(file: string, behavior: RuleBehavior, rule: string): Promise<boolean> {
  const want = rule.trim();
  return editSettingsDocument(
    file,
    (doc) => {
      const seq = doc.getIn(['permissions', behavior], true);
      if (!isSeq(seq)) return false;
      const before = seq.items.length;
      seq.items = seq.items.filter((item) => !(isScalar(item) && String(item.value).trim() === want));
      return seq.items.length !== before;
    },
    { skipMissing: true },
  );
}

/**
 * Edits a rule in place in one file, in one atomic write: same behaviour, the item's text changes where it stands
 * (its comment stays); another behaviour, it leaves one list for the other. Resolves false when `from` is not there.
 */
export async function replaceRuleInFile(
  file: string,
  from: { behavior: RuleBehavior; rule: string },
  to: { behavior: RuleBehavior; rule: string },
): Promise<boolean> {
  const text = parsedText(to.rule);
  const want = from.rule.trim();
  let found = false;
  await editSettingsDocument(
    file,
    (doc) => {
      const source = doc.getIn(['permissions', from.behavior], true);
      if (!isSeq(source)) return false;
      const index = source.items.findIndex((item) => isScalar(item) && String(item.value).trim() === want);
      if (index < 0) return false;
      found = true;
      if (from.behavior === to.behavior && want === text) return false; // nothing to change
      const already = listTexts(doc, to.behavior).includes(text);
      if (from.behavior === to.behavior && !already) {
        const item = source.items[index];
        if (isScalar(item)) item.value = text;
      } else {
        source.items = source.items.filter((item) => !(isScalar(item) && String(item.value).trim() === want));
        if (!already) permissionsList(doc, file, to.behavior).add(doc.createNode(text));
      }
      return true;
    },
    { skipMissing: true },
  );
  return found;
}
