import { programName } from './names';
import type { Stdin } from './state';
import { xargsItems, type XargsOptions } from './xargs';

/**
 * Wrappers run another program with the rest of their arguments (`env X=1 nice -n 5 timeout 10 rm ...`): we look
 * through them so argv[0] is the program that really runs. An option we do not know makes the command
 * unreadable rather than guessing where the wrapped program starts.
 */
interface WrapperSpec {
  /** Short flags without a value. */
  short?: string;
  /** Short flags that take a value (attached `-n5` or next word). */
  shortArg?: string;
  /** Short flags whose value is optional and only ever attached (`xargs -i{}`). */
  shortOptional?: string;
  long?: string[];
  longArg?: string[];
  /** `nice -10`. */
  numericShort?: boolean;
  /** Operands before the command (`timeout DURATION`). */
  operands?: number;
  /** Flags that mean this is not a wrapper call at all (`command -v x` only looks x up). */
  notWrapper?: string;
  /** Flags we refuse (they write files or split strings into commands). */
  refuse?: string;
  refuseLong?: string[];
}

const SPECS: Record<string, WrapperSpec> = {
  command: { short: 'p', notWrapper: 'vV' },
  builtin: {},
  exec: { short: 'cl', shortArg: 'a' },
  nice: { shortArg: 'n', longArg: ['--adjustment'], numericShort: true },
  nohup: {},
  time: {
    short: 'pvaq',
    shortArg: 'f',
    refuse: 'o',
    long: ['--portability', '--verbose', '--append', '--quiet'],
    longArg: ['--format'],
    refuseLong: ['--output'],
  },
  timeout: {
    short: 'v',
    shortArg: 'sk',
    long: ['--preserve-status', '--foreground', '--verbose'],
    longArg: ['--signal', '--kill-after'],
    operands: 1,
  },
  stdbuf: { shortArg: 'ioe', longArg: ['--input', '--output', '--error'] },
  xargs: {
    short: '0prtxo',
    shortArg: 'IEsLnPda',
    shortOptional: 'ile',
    long: [
      '--null',
      '--no-run-if-empty',
      '--verbose',
      '--interactive',
      '--exit',
      '--open-tty',
      '--show-limits',
      '--replace',
      '--max-lines',
      '--eof',
    ],
    longArg: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
  },
  setsid: { short: 'cfw', long: ['--ctty', '--fork', '--wait'] },
  ionice: { short: 't', shortArg: 'cn', notWrapper: 'pPu' },
  coproc: {},
  busybox: {},
  toybox: {},
};

export interface Unwrapped {
  argv: string[];
  dynamic: boolean[];
  /** Why the wrappers could not be looked through (unknown option, `env -S`...). */
  problem: string | null;
  /** The program gets its remaining arguments from stdin (`xargs`): its own stdin is not the pipe. */
  viaXargs: boolean;
  /** `env -C DIR` changed the directory. */
  changesDirectory: boolean;
  /** The items `xargs` reads when its input is literal text (`echo a b | xargs rm`), else null. */
  xargsInput: string[] | null;
  /** `xargs -I R`: the string each item replaces. */
  xargsReplace: string | null;
  /** The `NAME=value` words `env` puts in the environment (any text before `=` is a name to env). */
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

/** Index after the options of `env`, or a problem. */
function skipEnv(argv: string[], start: number, out: Unwrapped): number | string {
  let i = start;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (a === '--') {
      // the options end; assignments may still follow
      for (i++; i < argv.length && (argv[i] as string).includes('='); i++) out.envAssignments.push(argv[i] as string);
      return i;
    }
    if (a.includes('=') && !a.startsWith('-')) {
      out.envAssignments.push(a);
      i++;
      continue;
    }
    if (a === '-' || a === '-i' || a === '-0' || a === '-v' || /^--(ignore-environment|null|debug)$/.test(a)) {
      i++;
      continue;
    }
    if (a === '-u' || a === '--unset' || a === '-C' || a === '--chdir') {
      if (a === '-C' || a === '--chdir') out.changesDirectory = true;
      else out.envUnset.push(argv[i + 1] ?? '');
      i += 2;
      continue;
    }
    if (/^-u./.test(a) || a.startsWith('--unset=')) {
      out.envUnset.push(a.startsWith('--') ? a.slice(8) : a.slice(2));
      i++;
      continue;
    }
    if (/^-C./.test(a) || a.startsWith('--chdir=')) {
      out.changesDirectory = true;
      i++;
      continue;
    }
    if (/^-[i0v]+$/.test(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) return `env option ${a} is not understood`;
    return i;
  }
  return i;
}

/** Index after the options (and leading operands) of a wrapper, `'not-wrapper'`, or a problem. */
function skipOptions(argv: string[], start: number, spec: WrapperSpec): number | string {
  let i = start;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (a.startsWith('--')) {
      const name = a.split('=')[0] as string;
      if (spec.refuseLong?.includes(name)) return `option ${name} is not supported`;
      if (spec.longArg?.includes(name)) i += a.includes('=') ? 1 : 2;
      else if (spec.long?.includes(name)) i++;
      else return `option ${name} is not understood`;
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
      if (spec.notWrapper?.includes(ch)) return 'not-wrapper';
      if (spec.refuse?.includes(ch)) return `option -${ch} is not supported`;
      if (spec.shortArg?.includes(ch)) {
        if (j === a.length - 1) consumed = 2;
        break;
      }
      if (spec.shortOptional?.includes(ch)) break;
      if (!spec.short?.includes(ch)) return `option -${ch} is not understood`;
    }
    i += consumed;
  }
  return i + (spec.operands ?? 0);
}

export function unwrap(words: string[], dynamic: boolean[], stdin: Stdin = { kind: 'none' }): Unwrapped {
  const out: Unwrapped = {
    argv: words,
    dynamic,
    problem: null,
    viaXargs: false,
    changesDirectory: false,
    xargsInput: null,
    xargsReplace: null,
    envAssignments: [],
    envUnset: [],
  };
  let start = 0;
  for (let depth = 0; depth < 32 && start < words.length; depth++) {
    if (dynamic[start] === true) break;
    const name = programName(words[start] as string);
    const spec = SPECS[name];
    if (name !== 'env' && spec === undefined) break;
    const next = name === 'env' ? skipEnv(words, start + 1, out) : skipOptions(words, start + 1, spec as WrapperSpec);
    if (next === 'not-wrapper') break;
    if (typeof next === 'string') {
      out.problem = `${name}: ${next}`;
      break;
    }
    if (next >= words.length) break; // the wrapper alone runs nothing else
    if (name === 'xargs') {
      const opts = xargsOptions(words.slice(start + 1, next));
      // only the first xargs reads the command's input; a second one reads what the first passes it: nothing
      const literal =
        !out.viaXargs && stdin.kind === 'literal' && !opts.fromFile && !dynamic.slice(start, next).some((d) => d);
      out.xargsInput = literal ? xargsItems(stdin.text, opts) : null;
      out.xargsReplace = opts.replace;
      out.viaXargs = true;
    }
    start = next;
  }
  out.argv = words.slice(start);
  out.dynamic = dynamic.slice(start);
  return out;
}
