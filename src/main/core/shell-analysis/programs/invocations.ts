import { followCommandOptions } from './command-options';
import { interpreterInvocation, interpreterSpec } from './interpreters';
import { DIRECTORY_CHANGERS, FOREIGN_SHELLS, programName, SHELLS } from '../words/names';
import { printfOutput, unescapeEcho } from '../words/printf';
import { checkProgramFiles, programSource, runsProgramFile, stdinSource, type ProgramSource } from './program-streams';
import { atInvocation, crontabInvocation } from './scheduled-commands';
import { UNKNOWN_STDIN, type Stdin, type WalkerApi } from '../walk/state';
import type { SimpleCommand } from '../types';
import { joinDirectory } from '../walk/working-directory';

/**
 * Programs whose arguments or input are themselves code: shells (`-c STRING`, a script on stdin), `eval`,
 * `source`, `trap`, `alias`, `find -exec`, `watch`, interpreters. Bash code is parsed recursively; code we cannot
 * see makes the command unreadable. Also `tee FILE` (a write) and `cd` (the directory changes).
 */

/**
 * A shell's script read from a descriptor (its input, `/dev/stdin`, `/dev/fd/3`; contract "Assurance: Shells fed
 * from elsewhere"). Literal text written in the command is the script written out, exactly like `-c`: it is
 * analysed as a script and the shell is as read-only as that script. Anything else (a pipe, a file on a
 * redirect, a process substitution) is unreadable. A script read from standard input shares it with the commands
 * it runs: they read the rest of the script, which is not what they would read from the command's own input.
 */
function shellScriptStream(
  cmd: SimpleCommand,
  source: ProgramSource,
  stdin: Stdin,
  w: WalkerApi,
  where: 'child' | 'here',
): boolean {
  if (source.kind === 'file') return false;
  if (source.kind === 'unseen') {
    w.unreadable(`${cmd.name} runs a script nobody can read: ${source.why}`);
    if (source.text !== undefined) w.nestedSource(source.text, UNKNOWN_STDIN, where); // for the deny list
    return false;
  }
  const inner: Stdin =
    source.fd === 0
      ? UNKNOWN_STDIN
      : stdin.kind === 'literal'
        ? { kind: 'literal', text: stdin.text }
        : { kind: stdin.kind };
  w.nestedSource(source.text, inner, where);
  return true;
}

/** Shell options that change nothing but tracing and error handling: a shell with only these runs just its script. */
const PLAIN_SHELL_FLAGS = /^-[cleuxvfn]+$|^--(login|norc|noprofile|posix)$/;
const PLAIN_SET_OPTIONS = new Set(['pipefail', 'errexit', 'nounset', 'xtrace', 'noglob', 'verbose', 'noclobber']);

function shellInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const argv = cmd.argv;
  let i = 1;
  let dashC = false;
  let dashS = false;
  let plain = true;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (dyn[i] === true && a.startsWith('-')) {
      w.unreadable(`${cmd.name} gets a computed option`);
      return;
    }
    if (a === '--' || a === '-') {
      i++;
      break;
    }
    if (a.startsWith('--')) {
      if (!PLAIN_SHELL_FLAGS.test(a)) plain = false;
      i += a === '--rcfile' || a === '--init-file' ? 2 : 1;
      continue;
    }
    if (a.length > 1 && (a.startsWith('-') || a.startsWith('+'))) {
      let extra = 0;
      for (const ch of a.slice(1)) {
        if (ch === 'c') dashC = true;
        else if (ch === 's') dashS = true;
        else if (ch === 'o' || ch === 'O') extra++;
      }
      const values = argv.slice(i + 1, i + 1 + extra);
      if (!PLAIN_SHELL_FLAGS.test(a.replace(/o/g, '')) && !/^-o$/.test(a)) plain = false;
      if (/[oO]/.test(a) && !values.every((v) => PLAIN_SET_OPTIONS.has(v))) plain = false;
      i += 1 + extra;
      continue;
    }
    break;
  }
  if (dashC) {
    const script = argv[i];
    if (script === undefined) w.unreadable(`${cmd.name} -c without a command string`);
    else if (dyn[i] === true) w.unreadable(`${cmd.name} -c runs a string that is not literal`);
    else {
      w.nestedSource(script, stdin, 'child'); // its commands read the shell's input and descriptors
      // the shell only runs the script just analysed: its verdict is the script's (contract "Friction")
      if (plain && !cmd.argsFromInput) cmd.runsAnalysedCode = true;
    }
    return;
  }
  const file = argv[i];
  // a script file: what it does is the file's business, the command itself is readable
  const source =
    file !== undefined && !dashS ? programSource(file, dyn[i] === true, false, stdin, w) : stdinSource(stdin);
  if (shellScriptStream(cmd, source, stdin, w, 'child') && plain && !cmd.argsFromInput) cmd.runsAnalysedCode = true;
}

/** Operands after an optional `--` (`eval -- CODE`, `trap -- CODE SIG`, `source -- FILE`). */
function afterDashDash(argv: string[], dyn: boolean[]): { args: string[]; dyn: boolean[] } {
  const skip = argv[1] === '--' ? 2 : 1;
  return { args: argv.slice(skip), dyn: dyn.slice(skip) };
}

/** A program that runs a shell or interpreter on a placeholder (`find -exec sh -c '{}'`) runs data as code. */
function runsInterpreter(words: string[]): boolean {
  const name = programName(words[0] ?? '');
  return (
    SHELLS.has(name) ||
    FOREIGN_SHELLS.has(name) ||
    interpreterSpec(name) !== undefined ||
    name === 'eval' ||
    name === 'source' ||
    name === '.'
  );
}

function findExec(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const argv = cmd.argv;
  for (let i = 1; i < argv.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(argv[i] as string)) continue;
    let end = i + 1;
    while (end < argv.length && argv[end] !== ';' && argv[end] !== '+') end++;
    const words = argv.slice(i + 1, end);
    // `{}` is each file found: a path only known when find runs
    const wordDyn = words.map((word, k) => dyn[i + 1 + k] === true || word.includes('{}'));
    if (words.some((word) => word.includes('{}')) && runsInterpreter(words)) {
      w.unreadable(`find ${argv[i]} runs ${programName(words[0] ?? '')} on the files it finds`);
    }
    if (words.length > 0) {
      // the program inherits find's input
      const emit = (): void => w.emitArgv(words, wordDyn, words.join(' '), stdin);
      if (/dir$/.test(argv[i] as string)) inFoundFolders(cmd, dyn, w, emit);
      else emit();
    }
    i = end;
  }
}

/**
 * `find START -execdir CMD`: CMD runs in the folder of each file found, which only the run decides (contract
 * "Assurance: Working-directory options"): its relative paths are unknown, with START as the best guess for the
 * hard checks (`find .gatehouse -execdir sh -c 'echo x > settings.yaml' \;` writes into .gatehouse/).
 */
function inFoundFolders(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi, emit: () => void): void {
  const argv = cmd.argv;
  let i = 1;
  while (i < argv.length && /^-([HLP]|O\d*|D)$/.test(argv[i] as string)) i += argv[i] === '-D' ? 2 : 1;
  const starts: number[] = [];
  for (; i < argv.length && !/^[-(!]/.test(argv[i] as string); i++) starts.push(i);
  const only = starts.length === 0 ? '.' : starts.length === 1 ? (argv[starts[0] as number] as string) : null;
  const at =
    only === null ? null : joinDirectory(w.state.cwd, only, starts.length === 1 && dyn[starts[0] as number] === true);
  const outer = w.state.cwd;
  w.state.cwd = at === null ? null : typeof at === 'string' ? { under: at } : at;
  w.state.changesDirectory = true;
  try {
    emit();
  } finally {
    w.state.cwd = outer;
  }
}

function teeWrites(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  let append = false;
  let options = true;
  const files: { path: string; dynamic: boolean }[] = [];
  cmd.argv.forEach((a, i) => {
    if (i === 0) return;
    if (options && a === '--') {
      options = false;
      return;
    }
    if (options && a.startsWith('-') && a.length > 1) {
      if (a === '--append' || (!a.startsWith('--') && a.includes('a'))) append = true;
      return;
    }
    files.push({ path: a, dynamic: dyn[i] === true });
  });
  const cwd = w.state.cwd === '' ? {} : { cwd: w.state.cwd };
  for (const f of files)
    w.state.writes.push({ path: f.path, via: append ? 'tee -a' : 'tee', dynamic: f.dynamic, ...cwd });
}

/** `watch [options] CMD...` runs `sh -c "CMD..."` every few seconds (`-x`: runs CMD directly). */
function watchInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const argv = cmd.argv;
  let i = 1;
  let direct = false;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    if (a === '-x' || a === '--exec') direct = true;
    else if (a === '-n' || a === '--interval') i++;
    else if (/^-[a-zA-Z]*x/.test(a) && !a.startsWith('--')) direct = true;
    i++;
  }
  const words = argv.slice(i);
  if (words.length === 0) return;
  if (direct) {
    w.emitArgv(words, dyn.slice(i), words.join(' '), stdin);
    return;
  }
  if (dyn.slice(i).some((d) => d)) w.unreadable('watch runs a string that is not literal');
  else w.nestedSource(words.join(' '), stdin, 'child');
}

function evalInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const { args, dyn: argDyn } = afterDashDash(cmd.argv, dyn);
  if (argDyn.some((d) => d)) {
    w.unreadable('eval of a string that is not literal');
    return;
  }
  if (args.length === 0) return;
  w.nestedSource(args.join(' '), stdin, 'here');
  cmd.runsAnalysedCode = true;
}

function trapInvocation(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  const { args, dyn: argDyn } = afterDashDash(cmd.argv, dyn);
  const code = args[0];
  // `trap -p`, `trap -l`, `trap SIG` (reset): no code
  if (code === undefined || args.length < 2 || (cmd.argv[1] !== '--' && code.startsWith('-'))) return;
  if (argDyn[0] === true) w.unreadable('trap runs a string that is not literal');
  else w.nestedSource(code, { kind: 'none' }, 'here');
}

function sourceInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const { args, dyn: argDyn } = afterDashDash(cmd.argv, dyn);
  const file = args[0];
  if (file === undefined) return;
  shellScriptStream(cmd, programSource(file, argDyn[0] === true, false, stdin, w), stdin, w, 'here');
  // the sourced file may set any variable: nothing is known to be an integer any more
  w.state.integers.clear();
}

export function followInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const name = cmd.name;
  if (DIRECTORY_CHANGERS.has(name)) w.state.changesDirectory = true;
  if (cmd.argsFromInput === true && runsInterpreter([name])) {
    w.unreadable(`xargs runs ${name} with arguments from its input`);
  }
  if (SHELLS.has(name)) {
    shellInvocation(cmd, dyn, stdin, w);
    return;
  }
  if (FOREIGN_SHELLS.has(name) && (cmd.argv.length > 1 || stdin.kind !== 'none')) {
    w.unreadable(`${name} code is not bash: it cannot be read`);
    shellInvocation(cmd, dyn, stdin, w); // still look for denied commands in it
    return;
  }
  if (interpreterSpec(name) !== undefined) {
    interpreterInvocation(cmd, dyn, stdin, w);
    return;
  }
  if (runsProgramFile(name)) checkProgramFiles(cmd, dyn, stdin, w);
  switch (name) {
    case 'eval':
      evalInvocation(cmd, dyn, stdin, w);
      return;
    case 'source':
    case '.':
      sourceInvocation(cmd, dyn, stdin, w);
      return;
    case 'trap':
      trapInvocation(cmd, dyn, w);
      return;
    case 'alias':
      cmd.argv.slice(1).forEach((a, k) => {
        const eq = a.indexOf('=');
        if (eq <= 0) return;
        if (dyn[k + 1] === true) w.unreadable('alias of a string that is not literal');
        else w.nestedSource(a.slice(eq + 1), { kind: 'none' }, 'here');
      });
      return;
    case 'find':
      findExec(cmd, dyn, stdin, w);
      return;
    case 'tee':
      teeWrites(cmd, dyn, w);
      return;
    case 'watch':
      watchInvocation(cmd, dyn, stdin, w);
      return;
    case 'at':
    case 'batch':
      atInvocation(cmd, dyn, stdin, w);
      return;
    case 'crontab':
      crontabInvocation(cmd, dyn, stdin, w);
      return;
    default:
      followCommandOptions(cmd, dyn, stdin, w);
      return;
  }
}

/**
 * What a command writes to its stdout when that is known text (`echo 'rm -rf /' | sh`, `cat <<EOF | bash`,
 * `printf '%s\n' / | xargs rm -rf`), else null.
 */
export function literalOutput(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin): string | null {
  if (dyn.some((d) => d)) return null;
  const args = cmd.argv.slice(1);
  if (cmd.name === 'echo') {
    let newline = true;
    let escapes = false;
    while (args[0] !== undefined && /^-[neE]+$/.test(args[0])) {
      const flags = args.shift() as string;
      if (flags.includes('n')) newline = false;
      if (flags.includes('e')) escapes = true;
      if (flags.includes('E')) escapes = false;
    }
    const text = args.join(' ');
    const body = escapes ? unescapeEcho(text) : text;
    return body === null ? null : body + (newline ? '\n' : '');
  }
  if (cmd.name === 'printf') {
    const [format, ...rest] = args;
    if (format === undefined || format === '-v' || format === '--') return null;
    return printfOutput(format, rest);
  }
  if (cmd.name === 'cat' && args.length === 0 && stdin.kind === 'literal') return stdin.text;
  return null;
}
