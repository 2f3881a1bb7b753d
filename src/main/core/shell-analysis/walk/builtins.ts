import { builtinAssignments } from './builtin-assignments';
import { analyseAssignedValue } from './environment-assignments';
import { printfOutput } from '../words/printf';
import { NO_STDIN, type WalkerApi } from './state';
import type { SimpleCommand } from '../types';

/**
 * Builtins that take code as an option's value or change what later names run (contract "Assurance: Code-taking
 * builtins and options are a closed table"). A literal string of code is analysed where bash runs it, so the deny
 * list and rules see it; code that is not literal, or that the text cannot show, makes the command unreadable.
 * `eval`, `trap`, `source` and `alias` are followed in invocations.ts; the assignments builtins make in
 * builtin-assignments.ts.
 *
 * | builtin              | option      | bash does with the value                                  |
 * |----------------------|-------------|-----------------------------------------------------------|
 * | mapfile, readarray   | -C CALLBACK | evaluates `CALLBACK INDEX LINE` every -c lines            |
 * | compgen, complete    | -W WORDS    | expands each word (substitutions run)                     |
 * | compgen, complete    | -C COMMAND  | runs COMMAND in a subshell                                |
 * | compgen, complete    | -F FUNCTION | calls the function (defined in the text, or unknown)      |
 * | bind                 | -x SEQ:CMD  | runs CMD when SEQ is typed                                |
 * | hash                 | -p PATH     | the names after it run PATH from then on                  |
 * | enable               | -f FILE     | loads FILE (a shared object) as builtins: code            |
 * | set                  | -k          | every later `NAME=value` argument goes to the environment |
 * | set                  | -a          | every later assignment is exported                        |
 * | fc                   | -s, -e      | runs commands from the history list                       |
 * | printf               | -v NAME     | a prompt, PROMPT_COMMAND or pager given code as its value |
 */

/** Options of each builtin that take a value (bash's own getopt: clustered flags, value attached or next). */
const VALUED: Record<string, string> = {
  mapfile: 'dnOsuCc',
  readarray: 'dnOsuCc',
  compgen: 'oAGWFCXPS',
  complete: 'oAGWFCXPS',
  bind: 'mfqurx',
  hash: 'pt',
  enable: 'f',
  fc: 'e',
};

interface Option {
  letter: string;
  value: string;
  dynamic: boolean;
}

/** The options of a builtin call, in order; `operands` is where the operands start. */
function builtinOptions(cmd: SimpleCommand, valued: string): { options: Option[]; operands: number } {
  const options: Option[] = [];
  const argv = cmd.argv;
  let i = 1;
  for (; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') {
      i++;
      break;
    }
    if (!/^[-+]./.test(word)) break;
    for (let k = 1; k < word.length; k++) {
      const letter = word[k] as string;
      if (!valued.includes(letter)) {
        options.push({ letter, value: '', dynamic: cmd.argvDynamic?.[i] === true });
        continue;
      }
      const attached = k + 1 < word.length;
      const at = attached ? i : i + 1;
      options.push({
        letter,
        value: attached ? word.slice(k + 1) : (argv[at] ?? ''),
        dynamic: cmd.argvDynamic?.[at] === true,
      });
      if (!attached) i++;
      break;
    }
  }
  return { options, operands: i };
}

function mapfileCallback(cmd: SimpleCommand, w: WalkerApi): void {
  for (const o of builtinOptions(cmd, VALUED.mapfile as string).options) {
    if (o.letter !== 'C') continue;
    if (o.dynamic) w.unreadable(`${cmd.name} -C runs a callback that is not literal`);
    // bash evaluates the callback with the line's index and the line (data) appended
    else w.nestedSource(`${o.value} 0 "$GATEHOUSE_LINE"`, NO_STDIN, 'here');
  }
}

function completion(cmd: SimpleCommand, w: WalkerApi): void {
  for (const o of builtinOptions(cmd, VALUED.compgen as string).options) {
    if (!'WCF'.includes(o.letter)) continue;
    if (o.dynamic) w.unreadable(`${cmd.name} -${o.letter} takes code that is not literal`);
    else if (o.letter === 'W') w.nestedSource(`: ${o.value}`, NO_STDIN, 'here');
    else if (o.letter === 'C') w.nestedSource(o.value, NO_STDIN, 'child');
  }
}

/** `bind -x 'KEYSEQ: COMMAND'`: the command after the key sequence (quoted or not). */
function bindCommand(value: string): string | null {
  let i = 0;
  if (value.startsWith('"')) {
    for (i = 1; i < value.length && value[i] !== '"'; i++) if (value[i] === '\\') i++;
    i++;
  }
  const colon = value.indexOf(':', i);
  if (colon < 0) return null;
  const rest = value.slice(colon + 1).trim();
  const quoted = /^(["'])([\s\S]*)\1$/.exec(rest);
  return quoted === null ? rest : (quoted[2] as string);
}

function bind(cmd: SimpleCommand, w: WalkerApi): void {
  for (const o of builtinOptions(cmd, VALUED.bind as string).options) {
    if (o.letter !== 'x') continue;
    const code = o.dynamic ? null : bindCommand(o.value);
    if (code === null) w.unreadable('bind -x binds a command that is not literal');
    else w.nestedSource(code, NO_STDIN, 'here');
  }
}

function hash(cmd: SimpleCommand, w: WalkerApi): void {
  const { options, operands } = builtinOptions(cmd, VALUED.hash as string);
  const names = cmd.argv.slice(operands);
  if (options.some((o) => o.letter === 'r')) w.state.hashed.clear();
  const path = options.find((o) => o.letter === 'p');
  if (path === undefined) {
    if (options.some((o) => o.letter === 'd')) for (const n of names) w.state.hashed.delete(n);
    return;
  }
  if (path.dynamic || cmd.argvDynamic?.slice(operands).some((d) => d) === true) {
    w.unreadable('hash -p of a path or name that is not literal: which program a name runs is unknown');
    return;
  }
  for (const n of names) w.state.hashed.set(n, path.value);
  w.state.environmentAltered = true;
}

function setOptions(cmd: SimpleCommand, w: WalkerApi): void {
  const argv = cmd.argv;
  for (let i = 1; i < argv.length && /^[-+]./.test(argv[i] as string) && argv[i] !== '--'; i++) {
    const word = argv[i] as string;
    if (cmd.argvDynamic?.[i] === true) w.unreadable('set of a computed option');
    const named = /^[-+]o$/.test(word) ? (argv[++i] ?? '') : null;
    if (word.startsWith('-') && (/k/.test(word.slice(1)) || named === 'keyword'))
      w.unreadable('set -k makes every later NAME=value argument an environment assignment');
    if (word.startsWith('-') && (/a/.test(word.slice(1)) || named === 'allexport')) w.state.allexport = true;
  }
}

/** `printf -v NAME FORMAT ARGS`: a literal value given to a variable whose value is code is analysed as such. */
function printfAssignment(cmd: SimpleCommand, w: WalkerApi): void {
  const argv = cmd.argv;
  const first = argv[1] ?? '';
  const attached = /^-v./.test(first);
  if (first !== '-v' && !attached) return;
  const name = attached ? first.slice(2) : argv[2];
  let i = attached ? 2 : 3;
  if (argv[i] === '--') i++;
  const format = argv[i];
  if (name === undefined || format === undefined || argv.some((_, k) => k > 0 && cmd.argvDynamic?.[k] === true)) return;
  const value = printfOutput(format, argv.slice(i + 1));
  if (value !== null) analyseAssignedValue(w, name, value, 'shell');
}

export function followBuiltin(cmd: SimpleCommand, w: WalkerApi): void {
  builtinAssignments(cmd, w);
  switch (cmd.name) {
    case 'printf':
      printfAssignment(cmd, w);
      return;
    case 'mapfile':
    case 'readarray':
      mapfileCallback(cmd, w);
      return;
    case 'compgen':
    case 'complete':
      completion(cmd, w);
      return;
    case 'bind':
      bind(cmd, w);
      return;
    case 'hash':
      hash(cmd, w);
      return;
    case 'enable':
      if (builtinOptions(cmd, VALUED.enable as string).options.some((o) => o.letter === 'f'))
        w.unreadable('enable -f loads a shared object as builtins: code the command does not show');
      return;
    case 'set':
      setOptions(cmd, w);
      return;
    case 'fc':
      if (!builtinOptions(cmd, VALUED.fc as string).options.some((o) => o.letter === 'l'))
        w.unreadable('fc runs commands from the history list, which the command does not show');
      return;
    case 'source':
    case '.':
      // the sourced file may set any variable, PATH included
      w.state.environmentAltered = true;
      return;
    default:
      return;
  }
}
