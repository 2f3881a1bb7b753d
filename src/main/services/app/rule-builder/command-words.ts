import type { CommandPart, CommandWord, CommandWords } from '../../../../shared/rule-builder-contract';
import { analyzeCommand } from '../../../core/shell-analysis/analyze';
import { initShellParser } from '../../../core/shell-analysis/parse/parser';
import { type SimpleCommand } from '../../../core/shell-analysis/types';
import { assignedName, variableKind } from '../../../core/shell-analysis/walk/environment';

/**
 * A word a rule cannot spell: a rule's words are joined by one space (runs of white space fold into one), so a word
 * that is empty, has a line break or tab, or leads, trails or doubles its spaces never matches as written.
 */
function unusable(word: string): boolean {
  return word === '' || /[^\S ]/.test(word) || / {2}/.test(word) || /^ | $/.test(word);
}

function wordOf(text: string, dynamic: boolean): CommandWord {
  return { text, glob: text.includes('*'), dynamic, unusable: unusable(text) };
}

/** Why no allow rule matches this simple command (the engine's allowVariants), or null. */
function allowBlocked(cmd: SimpleCommand): string | null {
  if (cmd.environmentAltered === true)
    return 'it sets a variable that changes what runs (PATH, LD_PRELOAD, NODE_OPTIONS…): no allow rule matches it';
  if (cmd.argsFromInput === true)
    return 'it takes more arguments from its input when it runs (xargs): no allow rule matches it';
  return null;
}

/**
 * The words an allow rule is matched against, as the engine matches them (stages/rules.ts, allowVariants): the
 * assignments that are not inert (`DEBUG=1`), then the program that really runs (wrappers set aside) and its
 * arguments, quotes removed.
 */
function partOf(cmd: SimpleCommand): CommandPart {
  const own = cmd.assignments.filter((a) => variableKind(assignedName(a, true) ?? '') !== 'inert');
  return {
    text: cmd.text,
    words: [...own.map((a) => wordOf(a, false)), ...cmd.argv.map((w, i) => wordOf(w, cmd.argvDynamic?.[i] === true))],
    allowBlocked: allowBlocked(cmd),
  };
}

/** A command cut into simple commands and their words with the engine's bash parser (the rule builder's chips). */
export async function commandWords(command: string): Promise<CommandWords> {
  await initShellParser();
  const analysis = analyzeCommand(command);
  return {
    readable: analysis.readable,
    reasons: analysis.unreadableReasons,
    parts: analysis.commands.filter((c) => c.argv.length > 0).map(partOf),
  };
}
