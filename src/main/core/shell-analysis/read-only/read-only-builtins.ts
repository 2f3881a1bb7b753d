import type { TablePaths } from '../programs/command-spec';
import type { SimpleCommand } from '../types';

/**
 * The inert uses of builtins (contract "Assurance: Code-taking builtins and options are a closed table"): bash
 * builtins that only set shell variables or options, with literal operands and listed options. They run nothing,
 * read nothing but their input, and name no path. Any other use of a builtin (another option, a computed operand,
 * `set -k`, `mapfile -C`, `hash`, `enable`, `trap`...) is not read-only; what an assignment or export does to later
 * commands is judged where it happens (environment-assignments.ts). echo, printf, test, true, pwd and type are in
 * the read-only table with the programs.
 */
interface BuiltinUse {
  /** Option letters without a value (after `-`, or `+` where bash takes it). */
  flags: string;
  /** Option letters that take a value. */
  valued?: string;
  /** Operands: variable names (`NAME` or `NAME=value`), numbers, or anything (`set -- ARGS`). */
  operands: 'names' | 'number' | 'any';
  maxOperands?: number;
  /** The builtin also takes `+x` to clear an attribute. */
  plus?: boolean;
  /**
   * Without operands it prints every variable, secrets the environment holds included (`set`, `export -p`,
   * `declare`): only uses that name their variables are inert.
   */
  printsAll?: boolean;
}

const DECLARE: BuiltinUse = { flags: 'aAgFflprtux', operands: 'names', plus: true, printsAll: true };

const BUILTINS = new Map<string, BuiltinUse>([
  ['export', { flags: 'np', operands: 'names', printsAll: true }],
  ['declare', DECLARE],
  ['typeset', DECLARE],
  ['local', DECLARE],
  ['readonly', { flags: 'aAfp', operands: 'names', printsAll: true }],
  ['unset', { flags: 'fv', operands: 'names' }],
  ['set', { flags: 'eufxvCahBHPTE', valued: 'o', operands: 'any', plus: true, printsAll: true }],
  ['shift', { flags: '', operands: 'number', maxOperands: 1 }],
  ['exit', { flags: '', operands: 'number', maxOperands: 1 }],
  ['return', { flags: '', operands: 'number', maxOperands: 1 }],
  ['read', { flags: 'rs', valued: 'adnNptu', operands: 'names' }],
  ['mapfile', { flags: 't', valued: 'dnOsuc', operands: 'names', maxOperands: 1 }],
  ['readarray', { flags: 't', valued: 'dnOsuc', operands: 'names', maxOperands: 1 }],
  ['getopts', { flags: '', operands: 'any' }],
  ['let', { flags: '', operands: 'any' }],
]);

/** `set -o NAME` values that only change error handling, tracing or globbing. */
const SET_OPTIONS = new Set([
  'errexit',
  'nounset',
  'xtrace',
  'verbose',
  'noglob',
  'noclobber',
  'pipefail',
  'allexport',
  'errtrace',
  'functrace',
  'hashall',
  'braceexpand',
  'histexpand',
  'physical',
]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?((\+)?=[\s\S]*)?$/;

/** Whether the arguments after the options are the operands this builtin takes. */
function operandsFit(use: BuiltinUse, operands: string[]): boolean {
  if (use.maxOperands !== undefined && operands.length > use.maxOperands) return false;
  if (use.operands === 'number') return operands.every((o) => /^-?\d+$/.test(o));
  if (use.operands === 'names') return operands.every((o) => NAME.test(o));
  return true;
}

/**
 * null: this use of a builtin is not inert. undefined: `cmd` is not one of these builtins. Otherwise no paths.
 */
export function builtinReadOnlyPaths(cmd: SimpleCommand): TablePaths | null | undefined {
  const use = BUILTINS.get(cmd.name);
  if (use === undefined || cmd.argv[0] !== cmd.name) return undefined;
  const argv = cmd.argv;
  if (use.printsAll === true && argv.length < 2) return null;
  if (argv.slice(1).some((_, k) => cmd.argvDynamic?.[k + 1] === true)) return null;
  let i = 1;
  for (; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') {
      i++;
      break;
    }
    const sign = word[0];
    if (word.length < 2 || (sign !== '-' && !(sign === '+' && use.plus === true))) break;
    if (use.operands === 'number' && /^-\d+$/.test(word)) break;
    for (let k = 1; k < word.length; k++) {
      const letter = word[k] as string;
      if (use.valued?.includes(letter) === true) {
        const value = k + 1 < word.length ? word.slice(k + 1) : argv[++i];
        if (value === undefined || (cmd.name === 'set' && !SET_OPTIONS.has(value))) return null;
        break;
      }
      if (!use.flags.includes(letter)) return null;
    }
  }
  const operands = argv.slice(i);
  if (use.printsAll === true && use.operands === 'names' && operands.length === 0) return null;
  return operandsFit(use, operands) ? { paths: [], variadic: new Set() } : null;
}
