import type { SimpleCommand } from './types';

/**
 * Variables that decide which program runs or what it loads (`PATH=. ls` runs the project's own `ls`):
 * after they change, a command's name no longer says what it does.
 */
const PROGRAM_VARIABLES =
  /^(PATH|LD_[A-Z_]+|DYLD_[A-Z_]+|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|IFS|GIT_[A-Z_]+|PAGER|MANPAGER|LESSOPEN|LESSCLOSE|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|BASH_FUNC_.*)$/;

const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);

function assignedName(word: string): string | null {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(word);
  return m === null ? null : (m[1] as string);
}

export function isProgramVariable(assignment: string): boolean {
  const name = assignedName(assignment);
  return name !== null && PROGRAM_VARIABLES.test(name);
}

/** The command itself runs with a changed PATH-like variable (`PATH=. ls`, `env LD_PRELOAD=x ls`). */
export function altersOwnEnvironment(cmd: SimpleCommand): boolean {
  if (cmd.assignments.some(isProgramVariable)) return true;
  const wrapperWords = cmd.words.slice(0, Math.max(0, cmd.words.length - cmd.argv.length));
  return wrapperWords.some(isProgramVariable);
}

/** The command changes the environment of the commands after it (`export PATH=.`, `source env.sh`, `hash -p`). */
export function altersLaterEnvironment(cmd: SimpleCommand): boolean {
  if (DECLARATIONS.has(cmd.name)) return cmd.argv.slice(1).some(isProgramVariable);
  if (cmd.name === 'source' || cmd.name === '.') return true;
  if (cmd.name === 'hash') return cmd.argv.some((a) => /^-[a-zA-Z]*p/.test(a));
  if (cmd.name === 'enable') return cmd.argv.some((a) => /^-[a-zA-Z]*f/.test(a));
  return false;
}
