import { gitReadOnlyPaths } from './read-only-git';
import { parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { READERS, READ_ONLY, type CommandSpec } from './read-only-table';
import { expandGlobArg } from './glob-expand';
import type { CommandContext, SimpleCommand } from './types';

/**
 * The built-in read-only command set and the file arguments of reading commands. A read-only command with
 * every path argument inside the project and no write redirection is a `read`; the engine confines the paths
 * returned here. Path arguments that the shell would expand (`$X`, `~user`) cannot be confined by their text,
 * so such a command is not read-only; globs are expanded against the file system when a context is given.
 */

const FIND_UNSAFE = /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls|files0-from)$/;
/** `sed -n` scripts that only print: addresses (numbers, `$`, `/re/`, ranges, steps) then `p`, `=`, `l`, `q`. */
const SED_ADDRESS = String.raw`(?:\d+(?:~\d+)?|\$|/(?:[^/\\\n]|\\[^\n])*/I?)`;
const SED_PRINT = new RegExp(String.raw`^\s*(?:${SED_ADDRESS}(?:\s*,\s*(?:${SED_ADDRESS}|[+~]\d+))?)?\s*!?\s*[pl=qQ]\s*$`);

function isSafeSedScript(script: string): boolean {
  return script.split(/[;\n]/).every((part) => part.trim() === '' || SED_PRINT.test(part));
}

function dynamicAt(cmd: SimpleCommand, index: number): boolean {
  return cmd.argvDynamic?.[index] === true;
}

function findPaths(cmd: SimpleCommand): { value: string; index: number }[] | null {
  const argv = cmd.argv;
  let i = 1;
  while (i < argv.length && /^-([HLP]|O\d*)$/.test(argv[i] as string)) i++;
  if (argv[i] === '-D') i += 2;
  const paths: { value: string; index: number }[] = [];
  while (i < argv.length && !/^[-(!]/.test(argv[i] as string)) paths.push({ value: argv[i] as string, index: i++ });
  for (let j = i; j < argv.length; j++) if (FIND_UNSAFE.test(argv[j] as string)) return null;
  return paths;
}

/** Operands that are paths, per the spec's operand layout; null when the layout is violated. */
function pathOperands(cmd: SimpleCommand, spec: CommandSpec, parsed: ParsedOptions): { value: string; index: number }[] | null {
  let ops = parsed.operands.filter((o) => o.value !== '-');
  switch (spec.operands) {
    case 'none':
      ops = [];
      break;
    case 'pattern-then-paths':
      if (!parsed.patternByOption) ops = parsed.operands.slice(1).filter((o) => o.value !== '-');
      break;
    case 'script-then-paths': {
      if (!parsed.patternByOption) {
        const script = parsed.operands[0];
        if (cmd.name === 'sed' && (script === undefined || !isSafeSedScript(script.value))) return null;
        ops = parsed.operands.slice(1).filter((o) => o.value !== '-');
      }
      break;
    }
    case 'all-but-last':
      if (!parsed.flags.some((f) => /^(-[a-zA-Z]*t|--target-directory)/.test(f))) ops = parsed.operands.slice(0, -1);
      break;
    case 'first':
      ops = parsed.operands.slice(0, 1);
      break;
    default:
      break;
  }
  if (spec.maxOperands !== undefined && parsed.operands.length > spec.maxOperands) return null;
  return [...ops, ...parsed.files];
}

/**
 * The paths as written; a glob is expanded when `ctx` is given (each file it reaches is then judged on its
 * own). Null when some path is computed by the shell and cannot be expanded here.
 */
function collect(cmd: SimpleCommand, paths: { value: string; index: number }[] | null, ctx?: CommandContext): string[] | null {
  if (paths === null) return null;
  const out: string[] = [];
  for (const p of paths) {
    if (!dynamicAt(cmd, p.index)) {
      out.push(p.value);
      continue;
    }
    // after a `cd` the glob is relative to somewhere else: not expanded
    const matches = ctx === undefined || cmd.cwd !== undefined ? null : expandGlobArg(p.value, ctx);
    if (matches === null) return null;
    out.push(...matches);
  }
  return out;
}

/**
 * null: not in the read-only set (or an option that writes or runs programs, or a changed PATH). Otherwise the
 * path-like arguments the engine must confine to the project ([] for `echo`, `pwd`, `git status`...). Pass
 * `ctx` to have glob arguments expanded (`ls src/*.ts`); without it a glob makes the command not read-only.
 */
export function readOnlyPathArgs(cmd: SimpleCommand, ctx?: CommandContext): string[] | null {
  if (cmd.environmentAltered === true || cmd.argsFromInput === true) return null;
  if (cmd.name === 'find') return collect(cmd, findPaths(cmd), ctx);
  if (cmd.name === 'git') {
    const git = gitReadOnlyPaths(cmd);
    return git === null ? null : collect(cmd, git, ctx);
  }
  const spec = READ_ONLY.get(cmd.name);
  if (spec === undefined) return null;
  if (spec.onlyFlags !== undefined) {
    const args = cmd.argv.slice(1);
    return args.length > 0 && args.every((a) => spec.onlyFlags?.includes(a)) ? [] : args.length === 0 && spec.bare === true ? [] : null;
  }
  if (spec.requireFlag !== undefined && !cmd.argv.slice(1).some((a) => spec.requireFlag?.test(a))) return null;
  if (cmd.argv.slice(1).some((a) => spec.unsafeWord?.test(a) === true)) return null;
  const parsed = parseOptions(cmd.argv, spec as OptionSpec);
  if (parsed.unsafe) return null;
  return collect(cmd, pathOperands(cmd, spec, parsed), ctx);
}

/**
 * The files a recognised file-reading command reads. With `ctx`, a glob argument is followed by the files it
 * matches (`cat .en*` also yields `.env`), so Read rules see them. (`cat`, `head`, `grep`, `sed`, `awk`, `cp` sources...), as
 * written, for Read(...) rules. [] for commands that are not readers.
 */
export function readPathArgs(cmd: SimpleCommand, ctx?: CommandContext): string[] {
  const spec = READERS.get(cmd.name);
  if (spec === undefined) return [];
  const parsed = parseOptions(cmd.argv, spec as OptionSpec);
  const layout: CommandSpec = spec.operands === 'script-then-paths' && cmd.name === 'sed' ? { ...spec, operands: 'pattern-then-paths' } : spec;
  const paths = pathOperands(cmd, { ...layout, maxOperands: undefined }, parsed) ?? [];
  const out: string[] = [];
  for (const p of paths) {
    out.push(p.value);
    if (ctx !== undefined && cmd.cwd === undefined && dynamicAt(cmd, p.index)) out.push(...(expandGlobArg(p.value, ctx) ?? []).filter((m) => m !== p.value));
  }
  return out;
}
