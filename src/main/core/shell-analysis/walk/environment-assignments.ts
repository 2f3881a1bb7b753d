import { assignedName, isListedVariable, variableKind, type VariableKind } from './environment';
import { NO_STDIN, type AnalysisState, type WalkerApi } from './state';
import type { SimpleCommand } from '../types';

/**
 * What an assignment does to the commands that see it (contract "Assurance: Environment assignments are closed";
 * the table is in environment.ts). Where an assignment lands:
 * - `command`: one command's environment (`X=1 cmd`, `env X=1 cmd`);
 * - `exported`: every later command (`export X=1`, `declare -x X`, `local -x`);
 * - `shell`: the shell's own variable (`X=1`, `read X`, `for X in`): later commands see it only when X came from
 *   the environment (assigning it exports it) or after `set -a`.
 */
export type AssignmentScope = 'command' | 'exported' | 'shell';

interface Reporter {
  readonly state: AnalysisState;
  unreadable(reason: string): void;
}

/** What the command given the assignment must be marked with: nothing, not read-only, or a changed program. */
export type CommandMark = 'none' | 'set' | 'altered';

/** Judges an assignment to `name`; for the `command` scope, says how to mark that command. */
export function judgeAssignment(r: Reporter, name: string, scope: AssignmentScope): CommandMark {
  const kind: VariableKind = variableKind(name);
  if (kind === 'inert') return 'none';
  const exported = scope !== 'shell' || r.state.allexport;
  if (kind === 'loads-code') {
    if (exported || isListedVariable(name)) {
      r.unreadable(`${name} is assigned: programs load code or configuration from it, which the command does not show`);
    }
    if (scope !== 'command') r.state.environmentAltered = true;
    return 'altered';
  }
  if (scope === 'command') return 'set';
  if (exported) r.state.environmentSet = true;
  return 'none';
}

/**
 * Judges the assignments a command is given (leading `X=1`, and `env X=1`), and the variables `env -u` removes,
 * and marks the command. A builtin that runs nothing only reads or prints with them (`IFS= read -r line`).
 */
export function judgeCommandEnvironment(cmd: SimpleCommand, unset: readonly string[], r: Reporter): void {
  const wrapped = cmd.words.length !== cmd.argv.length;
  const plainBuiltin = !wrapped && PLAIN_BUILTIN_NAMES.has(cmd.name);
  let mark: CommandMark = 'none';
  for (const a of cmd.assignments) {
    const name = assignedName(a, true);
    if (name === null || plainBuiltin) continue;
    const m = judgeAssignment(r, name, 'command');
    if (m === 'altered' || (m === 'set' && mark === 'none')) mark = m;
  }
  // removing PATH, HOME... changes where a program looks too (bash's own default PATH ends with `.`)
  if (unset.some((n) => variableKind(n) === 'loads-code')) mark = 'altered';
  if (mark === 'altered') cmd.environmentAltered = true;
  if (mark !== 'none') cmd.environmentSet = true;
}

const PLAIN_BUILTIN_NAMES = new Set([
  'read',
  'mapfile',
  'readarray',
  'printf',
  'echo',
  'test',
  '[',
  'true',
  'false',
  ':',
  'pwd',
  'getopts',
  'let',
  'shift',
]);

/** Names whose value is a command line a program runs (through `sh -c`, or as a program path). */
const COMMAND_VALUED = /^(PAGER|MANPAGER|EDITOR|VISUAL|BROWSER|SHELL)$|(_PAGER|_EDITOR|COMMAND|_CMD|ASKPASS)$/;

/** Prompt escapes (`\u`, `\$`...) are decoded before the expansions: `\$(cmd)` becomes `$(cmd)` for a user. */
function decodePromptEscapes(value: string): string {
  return value.replace(/\\([\s\S])/g, (_m, c: string) => (c === '$' || c === '`' ? c : c === '\\' ? '\\\\' : ''));
}

/**
 * Values that are code: a prompt (`PS0`-`PS4`) is expanded each time it is shown (with `set -x`, PS4 before every
 * traced command), running its substitutions; `PROMPT_COMMAND` runs before each prompt; an imported function
 * (`BASH_FUNC_ls%%=() { …; }`) is bash code; a pager, editor or `*_COMMAND` is a command line. The value is
 * analysed so the deny list and rules see what it runs (the assignment itself is unreadable already).
 */
export function analyseAssignedValue(w: WalkerApi, name: string, value: string, scope: AssignmentScope): void {
  // a program only runs a pager or `*_COMMAND` it finds in its environment; the shell reads its prompts itself
  const reachesPrograms = scope !== 'shell' || w.state.allexport;
  if (/^PS[0-4]$/.test(name)) {
    // after decoding, the only backslashes left are `\\` pairs: the text reads the same inside double quotes
    w.nestedSource(`: "${decodePromptEscapes(value).replace(/"/g, '\\"')}"`, NO_STDIN, 'child');
  } else if (name === 'PROMPT_COMMAND' || (reachesPrograms && COMMAND_VALUED.test(name))) {
    if (value.trim() !== '') w.nestedSource(value, NO_STDIN, 'child');
  } else if (name.startsWith('BASH_FUNC_') && /^\s*\(\s*\)/.test(value)) {
    w.nestedSource(`gatehouse_imported_function ${value}`, NO_STDIN, 'child');
  }
}

/** `export`, `declare`/`typeset`/`local` with `-x`: the names they export, and whether they export at all. */
function exportedNames(cmd: SimpleCommand): string[] {
  const keyword = cmd.name;
  let exports = keyword === 'export';
  let functions = false;
  const names: string[] = [];
  for (const word of cmd.argv.slice(1)) {
    if (/^-[a-zA-Z]+$/.test(word)) {
      if (word.includes('x')) exports = true;
      if (word.includes('n') && keyword === 'export') exports = false; // export -n removes the attribute
      if (word.includes('f')) functions = true;
      continue;
    }
    if (/^\+[a-zA-Z]+$/.test(word) || word === '--') continue;
    const name = assignedName(word) ?? (/^[A-Za-z_][A-Za-z0-9_]*$/.test(word) ? word : null);
    if (name !== null && !functions) names.push(name);
  }
  return exports ? names : [];
}

const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'unset']);

/**
 * A declaration builtin (contract "Assurance: Code-taking builtins"): a computed operand (`declare "$v"`, `export
 * "X=$y"`, `unset "$n"`) is evaluated by bash as an assignment or a name with a subscript, so it may run code: it
 * is unreadable. What it exports is judged for the commands after it; `unset` of a variable that decides what
 * programs load changes where they look.
 */
export function judgeDeclaration(cmd: SimpleCommand, r: Reporter): void {
  if (!DECLARATIONS.has(cmd.name)) return;
  cmd.argv.forEach((word, i) => {
    if (i > 0 && cmd.argvDynamic?.[i] === true && !/^[-+][a-zA-Z]+$/.test(word)) {
      r.unreadable(
        `${cmd.name} of a computed operand (${word}): bash evaluates it as an assignment, which may run code`,
      );
    }
  });
  if (cmd.name === 'unset') {
    const names = cmd.argv.slice(1).filter((w) => !w.startsWith('-'));
    if (names.some((n) => variableKind(n) === 'loads-code')) {
      r.state.environmentAltered = true;
      cmd.environmentSet = true;
    }
    return;
  }
  for (const name of exportedNames(cmd)) {
    // the export itself is not read-only either: it is what changes the commands after it
    if (variableKind(name) !== 'inert') cmd.environmentSet = true;
    judgeAssignment(r, name, 'exported');
  }
}
