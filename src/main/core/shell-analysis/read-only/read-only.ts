import { builtinReadOnlyPaths } from './read-only-builtins';
import { findReadOnlyPaths } from './read-only-find';
import { gitReadOnlyPaths } from './read-only-git';
import { parseOptions, type ParsedOptions } from '../programs/options';
import type { CommandSpec, Operand, TablePaths } from '../programs/command-spec';
import { READ_ONLY } from './read-only-table';
import { READERS } from '../programs/readers-table';
import { expandGlobArg, GLOB_CHARS as GLOB, isExpandableGlob } from '../words/glob-expand';
import type { CommandContext, SimpleCommand } from '../types';

/**
 * The built-in read-only command set and the file arguments of reading commands. A read-only command with
 * every path argument inside the project and no write redirection is a `read`; the engine confines the paths
 * returned here. Path arguments that the shell would expand (`$X`, `~user`) cannot be confined by their text,
 * so such a command is not read-only; globs are expanded against the file system when a context is given.
 */

/** `sed -n` scripts that only print: addresses (numbers, `$`, `/re/`, ranges, steps) then `p`, `=`, `l`, `q`. */
const SED_ADDRESS = String.raw`(?:\d+(?:~\d+)?|\$|/(?:[^/\\\n]|\\[^\n])*/I?)`;
const SED_PRINT = new RegExp(
  String.raw`^\s*(?:${SED_ADDRESS}(?:\s*,\s*(?:${SED_ADDRESS}|[+~]\d+))?)?\s*!?\s*[pl=qQ]\s*$`,
);

function isSafeSedScript(script: string): boolean {
  return script.split(/[;\n]/).every((part) => part.trim() === '' || SED_PRINT.test(part));
}

/**
 * Program identity (contract "Assurance"): a read-only program is named bare (looked up on PATH) or by a path
 * under a system folder. `./rg`, `bin/ls` and `/tmp/x/rg` are the project's (or anyone's) own programs.
 */
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$|^\/opt\/homebrew\/s?bin\/[^/]+$/;

function isSystemProgram(word: string): boolean {
  if (!word.includes('/')) return word.length > 0;
  return SYSTEM_BIN.test(word) && !word.includes('/../') && !word.includes('/./');
}

function dynamicAt(cmd: SimpleCommand, index: number): boolean {
  return cmd.argvDynamic?.[index] === true;
}

const indices = (ops: Operand[]): Set<number> => new Set(ops.map((o) => o.index));

/** Operands that are paths, per the spec's operand layout; null when the layout is violated. */
function pathOperands(cmd: SimpleCommand, spec: CommandSpec, parsed: ParsedOptions): TablePaths | null {
  let ops = parsed.operands.filter((o) => o.value !== '-');
  let variadic = indices(ops);
  switch (spec.operands) {
    case 'none':
      variadic = indices(parsed.operands);
      ops = [];
      break;
    case 'pattern-then-paths':
    case 'script-then-paths':
      if (!parsed.patternByOption) ops = parsed.operands.slice(1).filter((o) => o.value !== '-');
      variadic = indices(ops);
      break;
    case 'all-but-last':
      if (!parsed.flags.some((f) => /^(-[a-zA-Z]*t|--target-directory)/.test(f))) ops = parsed.operands.slice(0, -1);
      variadic = new Set();
      break;
    case 'first':
      ops = parsed.operands.slice(0, 1);
      variadic = new Set();
      break;
    case 'after-first':
      ops = parsed.operands.slice(1);
      variadic = indices(ops);
      break;
    default:
      break;
  }
  if (spec.maxOperands !== undefined) {
    if (parsed.operands.length > spec.maxOperands) return null;
    variadic = new Set(); // `uniq *` becomes `uniq IN OUT` when the glob matches two files
  }
  return { paths: [...ops, ...parsed.files], variadic };
}

/** sed is read-only only when every script it runs (the operand or each `-e`) only prints. */
function sedScriptsSafe(parsed: ParsedOptions): boolean {
  const scripts = parsed.patternByOption ? parsed.scripts : [parsed.operands[0]?.value];
  return scripts.length > 0 && scripts.every((s) => s !== undefined && isSafeSedScript(s));
}

/**
 * The paths as written; a glob is expanded when `ctx` is given (each file it reaches is then judged on its
 * own). Null when some path is computed by the shell and cannot be expanded here.
 */
function collect(cmd: SimpleCommand, paths: Operand[], ctx?: CommandContext): string[] | null {
  const out: string[] = [];
  for (const p of paths) {
    if (!dynamicAt(cmd, p.index)) {
      out.push(p.value);
      continue;
    }
    // `ctx.projectRoot` is where the command runs (the caller passes the directory a `cd` moved to)
    const matches = ctx === undefined ? null : expandGlobArg(p.value, ctx);
    if (matches === null) return null;
    out.push(...matches);
  }
  return out;
}

/**
 * Whether pathname expansion keeps the command's layout (contract "Assurance"). Bash replaces an unquoted glob
 * with every name it matches before the program runs, so `grep *` takes the first name as its pattern and reads
 * the others, `uniq *` writes its second match, and a file named `-o` turns `sort *` into `sort -o FILE`. A
 * glob word is kept only where several words mean the same as one (`variadic`), or when it matches at most
 * one name; and never when a name it matches would be read as an option. The expansion is a superset of
 * bash's (dot files, any case), so what it allows bash allows.
 */
function globLayoutKept(cmd: SimpleCommand, variadic: Set<number>, ctx?: CommandContext): boolean {
  for (let i = 1; i < cmd.argv.length; i++) {
    const word = cmd.argv[i] as string;
    if (!dynamicAt(cmd, i) || !GLOB.test(word)) continue;
    const matches = ctx !== undefined && isExpandableGlob(word) ? expandGlobArg(word, ctx) : null;
    if (matches === null) {
      if (variadic.has(i)) continue; // a path operand's own check refuses it; other text stays text
      return false;
    }
    if (matches.some((m) => m !== word && m.startsWith('-'))) return false;
    if (matches.length > 1 && !variadic.has(i)) return false;
  }
  return true;
}

/** Unary and binary operators of `test`: the other words are operands (values or paths). */
const TEST_OPERATORS = /^(-[a-zA-Z]|-(eq|ne|lt|le|gt|ge|nt|ot|ef)|=|==|!=|<|>|!|\(|\)|\]|-a|-o)$/;

function testOperands(cmd: SimpleCommand): Operand[] {
  const out: Operand[] = [];
  cmd.argv.forEach((value, index) => {
    if (index > 0 && !TEST_OPERATORS.test(value)) out.push({ value, index });
  });
  return out;
}

/** The words of a read-only command that are paths, or null when it is not in the closed list as written. */
function tablePaths(cmd: SimpleCommand): TablePaths | null {
  if (cmd.name === 'find') return findReadOnlyPaths(cmd);
  if (cmd.name === 'git') return gitReadOnlyPaths(cmd);
  const builtin = builtinReadOnlyPaths(cmd);
  if (builtin !== undefined) return builtin;
  const spec = READ_ONLY.get(cmd.name);
  if (spec === undefined) return null;
  const args = cmd.argv.slice(1);
  if (spec.onlyFlags !== undefined) {
    return (args.length > 0 && args.every((a) => spec.onlyFlags?.includes(a))) ||
      (args.length === 0 && spec.bare === true)
      ? { paths: [], variadic: new Set() }
      : null;
  }
  if (spec.noOptions === true) return { paths: [], variadic: new Set(args.map((_, i) => i + 1)) };
  if (spec.expression === true) {
    const operands = testOperands(cmd);
    return { paths: operands, variadic: indices(operands) };
  }
  if (spec.requireFlag !== undefined && !args.some((a) => spec.requireFlag?.test(a))) return null;
  if (args.some((a) => spec.unsafeWord?.test(a) === true)) return null;
  const parsed = parseOptions(cmd.argv, spec.options);
  if (parsed.unknown.length > 0) return null;
  if (cmd.name === 'sed' && !sedScriptsSafe(parsed)) return null;
  return pathOperands(cmd, spec, parsed);
}

/**
 * null: not in the read-only set (an unknown option, a program that is not the system's, a changed PATH...).
 * Otherwise the path-like arguments the engine must confine to the project ([] for `echo`, `pwd`,
 * `git status`...). Pass `ctx` (with `projectRoot` the directory the command runs in) to have glob arguments
 * expanded (`ls src/*.ts`); without it a glob makes the command not read-only. A shell or `eval` that only runs
 * code already analysed as separate commands (`bash -c 'ls'`) is read-only with no paths of its own.
 */
export function readOnlyPathArgs(cmd: SimpleCommand, ctx?: CommandContext): string[] | null {
  if (
    cmd.environmentAltered === true ||
    cmd.environmentSet === true ||
    cmd.argsFromInput === true ||
    cmd.runner !== undefined
  )
    return null;
  if (!isSystemProgram(cmd.argv[0] ?? '')) return null;
  if (cmd.runsAnalysedCode === true) return [];
  const table = tablePaths(cmd);
  if (table === null || !globLayoutKept(cmd, table.variadic, ctx)) return null;
  return collect(cmd, table.paths, ctx);
}

/**
 * The files a recognised file-reading command reads. With `ctx`, a glob argument is followed by the files it
 * matches (`cat .en*` also yields `.env`), so Read rules see them. (`cat`, `head`, `grep`, `sed`, `awk`, `cp` sources...), as
 * written, for Read(...) rules. [] for commands that are not readers.
 */
export function readPathArgs(cmd: SimpleCommand, ctx?: CommandContext): string[] {
  const spec = READERS.get(cmd.name);
  if (spec === undefined) return [];
  const paths = spec.noOptions === true ? readerOperands(cmd, spec) : readerPaths(cmd, spec);
  const out: string[] = [];
  for (const p of paths) {
    out.push(p.value);
    if (ctx !== undefined && dynamicAt(cmd, p.index))
      out.push(...(expandGlobArg(p.value, ctx) ?? []).filter((m) => m !== p.value));
  }
  return out;
}

function readerOperands(cmd: SimpleCommand, spec: CommandSpec): Operand[] {
  const ops = cmd.argv.slice(1).map((value, i) => ({ value, index: i + 1 }));
  return spec.operands === 'first' ? ops.slice(0, 1) : ops;
}

function readerPaths(cmd: SimpleCommand, spec: CommandSpec): Operand[] {
  const parsed = parseOptions(cmd.argv, spec.options);
  return pathOperands(cmd, { ...spec, maxOperands: undefined }, parsed)?.paths ?? [];
}
