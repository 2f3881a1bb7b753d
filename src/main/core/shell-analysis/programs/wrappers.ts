import { splitEnvString } from '../words/env-split';
import { programName } from '../words/names';
import type { Stdin } from '../walk/state';
import { WRAPPERS, type WrapperSpec } from './wrapper-table';
import { xargsItems, type XargsOptions } from './xargs';

/**
 * Wrappers run another program with the rest of their arguments (`env X=1 nice -n 5 timeout 10 rm ...`): we look
 * through them so argv[0] is the program that really runs (the table is in wrapper-table.ts). An option we do not
 * know makes the command unreadable rather than guessing where the wrapped program starts. What a wrapper does
 * besides (a working directory, a file it creates, shell code it runs) is reported for the walker to judge.
 */

/** A word a wrapper takes: the program runs after `depth` of the wrappers' directory moves. */
interface WrapperWord {
  value: string;
  dynamic: boolean;
  depth: number;
}

/** A directory a wrapper moves the program to, as written; null when it cannot be known (`unshare -R`). */
export type DirectoryChange = { dir: string; dynamic: boolean } | null;

export interface Unwrapped {
  argv: string[];
  dynamic: boolean[];
  /** Why the wrappers could not be looked through (unknown option, a computed `env -S`...). */
  problem: string | null;
  /** The program gets its remaining arguments from stdin (`xargs`): its own stdin is not the pipe. */
  viaXargs: boolean;
  /** A wrapper changed the directory (`env -C DIR`). */
  changesDirectory: boolean;
  /** The items `xargs` reads when its input is literal text (`echo a b | xargs rm`), else null. */
  xargsInput: string[] | null;
  /** `xargs -I R`: the string each item replaces. */
  xargsReplace: string | null;
  /** The directories the wrappers move the program to, in order (`env -C a`, `unshare -w b`). */
  directories: DirectoryChange[];
  /** The first wrapper outside the read-only set (`taskset`, `flock`...): the command is not read-only. */
  runner: string | null;
  /** Files the wrappers create (`flock FILE`, `strace -o FILE`). */
  creates: WrapperWord[];
  /** Shell code a wrapper runs instead of a program (`flock FILE -c CODE`). */
  code: WrapperWord[];
  /**
   * The `NAME=value` words `env` puts in the environment (any text before `=` is a name to env), those of an
   * `env -S` string included: the command's environment, not its words.
   */
  envAssignments: string[];
  /** The names `env -u` removes. */
  envUnset: string[];
}

/** The options of one `xargs` (words between the name and the command it runs). */
function xargsOptions(words: string[]): XargsOptions & { fromFile: boolean } {
  const o = {
    nul: false,
    delimiter: null as string | null,
    replace: null as string | null,
    eof: null as string | null,
    fromFile: false,
  };
  for (let i = 0; i < words.length; i++) {
    const a = words[i] as string;
    const next = (): string => words[++i] ?? '';
    if (a === '-0' || a === '--null') o.nul = true;
    else if (a === '-d') o.delimiter = next();
    else if (a.startsWith('--delimiter=')) o.delimiter = a.slice(12);
    else if (/^-d./.test(a)) o.delimiter = a.slice(2);
    else if (a === '-I') o.replace = next();
    else if (/^-I./.test(a)) o.replace = a.slice(2);
    else if (a === '-i' || a === '--replace') o.replace = '{}';
    else if (/^-i./.test(a)) o.replace = a.slice(2);
    else if (a.startsWith('--replace=')) o.replace = a.slice(10);
    else if (a === '-E') o.eof = next();
    else if (/^-e./.test(a)) o.eof = a.slice(2);
    else if (a.startsWith('--eof=')) o.eof = a.slice(6);
    else if (a === '-a' || a.startsWith('--arg-file') || /^-a./.test(a)) o.fromFile = true;
    else if (/^-[0-9a-zA-Z]$/.test(a) && 'sLnP'.includes(a[1] as string)) next();
  }
  return o;
}

/** An option's value as the program received it (attached or the next word). */
interface OptionValue {
  key: string;
  value: string;
  index: number;
}

type Skipped =
  | {
      kind: 'ok';
      next: number;
      values: OptionValue[];
      /** Short flags given, as letters. */
      flags?: string;
      split?: { words: string[]; dynamic: boolean[] };
    }
  | { kind: 'not-wrapper' }
  | { kind: 'problem'; why: string };

/**
 * `env`: assignments (any text before `=` is a name to env, also after `--`), `-i`, `-u NAME`, `-C DIR`, `-S STRING`
 * (the string split into the command's words). Assignments and unset names are recorded in `out`.
 */
function skipEnv(argv: string[], dyn: boolean[], start: number, out: Unwrapped): Skipped {
  const values: OptionValue[] = [];
  let i = start;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (a === '--') {
      // the options end; assignments may still follow
      for (i++; i < argv.length && (argv[i] as string).includes('='); i++) out.envAssignments.push(argv[i] as string);
      return { kind: 'ok', next: i, values };
    }
    if (a.includes('=') && !a.startsWith('-')) {
      out.envAssignments.push(a);
      i++;
      continue;
    }
    if (a === '-') {
      i++;
      continue;
    }
    const long =
      /^--(ignore-environment|null|debug|unset|chdir|split-string|default-signal|ignore-signal|block-signal|list-signal-handling)(?:=(.*))?$/s.exec(
        a,
      );
    if (long !== null) {
      const [, name = '', attached] = long;
      const takes = name === 'unset' || name === 'chdir' || name === 'split-string';
      const value = attached ?? (takes ? argv[i + 1] : undefined);
      const index = attached !== undefined || !takes ? i : i + 1;
      if (takes && value === undefined) return { kind: 'problem', why: `env option ${a} needs a value` };
      if (name === 'chdir') values.push({ key: 'C', value: value as string, index });
      if (name === 'unset') out.envUnset.push(value as string);
      if (name === 'split-string') return splitAt(argv, dyn, value as string, index, values);
      i = index + 1;
      continue;
    }
    if (!a.startsWith('-')) return { kind: 'ok', next: i, values };
    // a cluster of short options: `-i`, `-0v`, `-iC DIR`, `-uNAME`, `-S'cmd args'`
    let consumed = 1;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j] as string;
      if ('i0v'.includes(ch)) continue;
      if (!'uCS'.includes(ch)) return { kind: 'problem', why: `env option -${ch} is not understood` };
      const attached = a.slice(j + 1);
      const value = attached.length > 0 ? attached : argv[i + 1];
      const index = attached.length > 0 ? i : i + 1;
      if (value === undefined) return { kind: 'problem', why: `env option -${ch} needs a value` };
      if (attached.length === 0) consumed = 2;
      if (ch === 'C') values.push({ key: 'C', value, index });
      if (ch === 'u') out.envUnset.push(value);
      if (ch === 'S') return splitAt(argv, dyn, value, index, values);
      break;
    }
    i += consumed;
  }
  return { kind: 'ok', next: i, values };
}

/** `env -S STRING REST...`: the program runs STRING split into words, then REST. */
function splitAt(argv: string[], dyn: boolean[], value: string, index: number, values: OptionValue[]): Skipped {
  if (dyn[index] === true) return { kind: 'problem', why: 'env -S splits a string that is not literal' };
  const split = splitEnvString(value);
  if (typeof split === 'string') return { kind: 'problem', why: `env -S: ${split}` };
  return { kind: 'ok', next: index + 1, values, split };
}

/** Index after the options (and leading operands) of a wrapper, with the values of its options. */
function skipOptions(argv: string[], start: number, spec: WrapperSpec): Skipped {
  const values: OptionValue[] = [];
  let flags = '';
  let i = start;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(0, eq) : a;
      if (spec.notWrapperLong?.includes(name)) return { kind: 'not-wrapper' };
      if (spec.refuseLong?.includes(name)) return { kind: 'problem', why: `option ${name} is not supported` };
      if (spec.longArg?.includes(name)) {
        const value = eq >= 0 ? a.slice(eq + 1) : argv[i + 1];
        if (value !== undefined) values.push({ key: name, value, index: eq >= 0 ? i : i + 1 });
        i += eq >= 0 ? 1 : 2;
      } else if (spec.long?.includes(name) || spec.anyLong === true) {
        if (eq >= 0) values.push({ key: name, value: a.slice(eq + 1), index: i });
        i++;
      } else return { kind: 'problem', why: `option ${name} is not understood` };
      continue;
    }
    if (a.length < 2 || !a.startsWith('-')) break;
    if (spec.numericShort === true && /^-\d+$/.test(a)) {
      i++;
      continue;
    }
    let consumed = 1;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j] as string;
      if (spec.notWrapper?.includes(ch)) return { kind: 'not-wrapper' };
      if (spec.refuse?.includes(ch)) return { kind: 'problem', why: `option -${ch} is not supported` };
      if (spec.shortArg?.includes(ch)) {
        const attached = a.slice(j + 1);
        if (attached.length === 0) consumed = 2;
        const value = attached.length > 0 ? attached : argv[i + 1];
        if (value !== undefined) values.push({ key: ch, value, index: attached.length > 0 ? i : i + 1 });
        break;
      }
      if (spec.shortOptional?.includes(ch)) {
        values.push({ key: ch, value: a.slice(j + 1), index: i });
        break;
      }
      if (!spec.short?.includes(ch)) return { kind: 'problem', why: `option -${ch} is not understood` };
      flags += ch;
    }
    i += consumed;
  }
  return { kind: 'ok', next: i, values, flags };
}

/** What one wrapper's options do besides naming the program: directories, created files. */
function noteEffects(out: Unwrapped, spec: WrapperSpec, values: OptionValue[], dyn: boolean[]): void {
  for (const v of values) {
    const word: WrapperWord = { value: v.value, dynamic: dyn[v.index] === true, depth: out.directories.length };
    if (spec.creates?.includes(v.key)) out.creates.push(word);
    if (spec.directory?.includes(v.key)) out.directories.push({ dir: v.value, dynamic: word.dynamic });
    if (spec.lostDirectory?.includes(v.key)) out.directories.push(null);
  }
}

const ENV: WrapperSpec = { directory: ['C'] };

export function unwrap(words: string[], dynamic: boolean[], stdin: Stdin = { kind: 'none' }): Unwrapped {
  const out: Unwrapped = {
    argv: words,
    dynamic,
    problem: null,
    viaXargs: false,
    changesDirectory: false,
    xargsInput: null,
    xargsReplace: null,
    directories: [],
    runner: null,
    creates: [],
    code: [],
    envAssignments: [],
    envUnset: [],
  };
  let argv = words;
  let dyn = dynamic;
  let start = 0;
  for (let depth = 0; depth < 32 && start < argv.length; depth++) {
    if (dyn[start] === true) break;
    const name = programName(argv[start] as string);
    const spec = name === 'env' ? ENV : WRAPPERS[name];
    if (spec === undefined) break;
    const skipped = name === 'env' ? skipEnv(argv, dyn, start + 1, out) : skipOptions(argv, start + 1, spec);
    if (skipped.kind === 'not-wrapper') break;
    if (skipped.kind === 'problem') {
      out.problem = `${name}: ${skipped.why}`;
      break;
    }
    if (spec.leadingWord !== undefined && argv[skipped.next] !== spec.leadingWord) break;
    const next = skipped.next + (spec.operands ?? 0);
    noteEffects(out, spec, skipped.values, dyn);
    if (spec.createsOperand === true && skipped.next < argv.length) {
      const i = skipped.next;
      out.creates.push({ value: argv[i] as string, dynamic: dyn[i] === true, depth: out.directories.length });
    }
    if (spec.rootOperand === true && skipped.next < argv.length) out.directories.push(null);
    if (out.directories.length > 0) out.changesDirectory = true;
    if (spec.runner === true) out.runner ??= name;
    if (skipped.split !== undefined) {
      // env goes on reading the split words as its own arguments: assignments, options, then the command
      // (its assignments are recorded when the loop reads them)
      const split = skipped.split.words;
      argv = ['env', ...split, ...argv.slice(next)];
      dyn = [false, ...skipped.split.dynamic, ...dyn.slice(next)];
      start = 0;
      continue;
    }
    const code = argv[next];
    if (code !== undefined && spec.codeAfterOperands?.includes(code)) {
      // `flock FILE -c CODE`: the wrapper runs CODE with sh -c; the command stays the wrapper itself
      const text = argv[next + 1];
      if (text !== undefined) {
        out.code.push({ value: text, dynamic: dyn[next + 1] === true, depth: out.directories.length });
      }
      break;
    }
    const rest = spec.restIsCode;
    if (
      rest !== undefined &&
      next < argv.length &&
      (rest === true || [...rest].some((f) => skipped.flags?.includes(f)))
    ) {
      // `sg GROUP CMD...`, `entr -s CMD`: the words are one shell line
      const depthNow = out.directories.length;
      out.code.push({ value: argv.slice(next).join(' '), dynamic: dyn.slice(next).some((d) => d), depth: depthNow });
      break;
    }
    if (next >= argv.length) {
      // the wrapper alone runs nothing else, or a shell reading its input
      if (spec.shellWhenAlone === true) {
        argv = [...argv.slice(0, next), 'sh'];
        dyn = [...dyn.slice(0, next), false];
      } else break;
    }
    if (name === 'xargs') {
      const opts = xargsOptions(argv.slice(start + 1, next));
      // only the first xargs reads the command's input; a second one reads what the first passes it: nothing
      const literal =
        !out.viaXargs && stdin.kind === 'literal' && !opts.fromFile && !dyn.slice(start, next).some((d) => d);
      out.xargsInput = literal ? xargsItems(stdin.text, opts) : null;
      out.xargsReplace = opts.replace;
      out.viaXargs = true;
    }
    start = next;
  }
  out.argv = argv.slice(start);
  out.dynamic = dyn.slice(start);
  return out;
}
