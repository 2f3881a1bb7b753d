import type { RuleBehavior } from '../../../shared/permission';
import { addRuleToFile, fileHasRule, removeRuleFromFile } from './edit-rules-file';

export interface RuleRef {
  behavior: RuleBehavior;
  rule: string;
}

/** The file operations a move uses (the real ones by default; a test may make the second write fail). */
export interface RuleFileOps {
  has(file: string, behavior: RuleBehavior, rule: string): Promise<boolean>;
  add(file: string, behavior: RuleBehavior, rule: string): Promise<boolean>;
  remove(file: string, behavior: RuleBehavior, rule: string): Promise<boolean>;
}

const FILE_OPS: RuleFileOps = { has: fileHasRule, add: addRuleToFile, remove: removeRuleFromFile };

export class RuleNotFoundError extends Error {}
/** The rule was added to the target but is still in the source too: nothing is lost, the person is told. */
export class PartialMoveError extends Error {}

/**
 * Moves a rule from one settings file to another: added to the target first, then removed from the source, each
 * write atomic. If the removal fails the rule is in both files (never in neither), and the error says so.
 */
export async function moveRuleBetweenFiles(
  fromFile: string,
  from: RuleRef,
  toFile: string,
  to: RuleRef,
  ops: RuleFileOps = FILE_OPS,
): Promise<{ changed: boolean; files: string[] }> {
  if (!(await ops.has(fromFile, from.behavior, from.rule)))
    throw new RuleNotFoundError(`${from.behavior} rule "${from.rule}" is not in ${fromFile}`);
  const added = await ops.add(toFile, to.behavior, to.rule);
  try {
    await ops.remove(fromFile, from.behavior, from.rule);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new PartialMoveError(
      `${to.behavior} "${to.rule}" was ${added ? 'added to' : 'already in'} ${toFile}, but could not be removed from ${fromFile} (${why}): it is in both files now; remove it from ${fromFile} once that file can be written`,
    );
  }
  return { changed: true, files: [toFile, fromFile] };
}
