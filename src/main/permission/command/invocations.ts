import { DIRECTORY_CHANGERS, FOREIGN_SHELLS, SHELLS } from './names';
import type { Stdin, WalkerApi } from './state';
import type { SimpleCommand } from './types';

/**
 * Programs whose arguments or input are themselves code: shells (`-c STRING`, a script on stdin), `eval`,
 * `source`, `trap`, `alias`, `find -exec`, `watch`. Their code is parsed recursively; code we cannot see makes the
 * command unreadable. Also `tee FILE` (a write) and `cd` (the directory changes).
 */

const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

function shellReadsStdin(stdin: Stdin, w: WalkerApi, shell: string): void {
  if (stdin.kind === 'literal') w.nestedSource(stdin.text, { kind: 'none' });
  else if (stdin.kind === 'unknown') w.unreadable(`${shell} runs a script from input that is not literal`);
}

function shellInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const argv = cmd.argv;
  let i = 1;
  let dashC = false;
  let dashS = false;
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
      i += 1 + extra;
      continue;
    }
    break;
  }
  if (dashC) {
    const script = argv[i];
    if (script === undefined) w.unreadable(`${cmd.name} -c without a command string`);
    else if (dyn[i] === true) w.unreadable(`${cmd.name} -c runs a string that is not literal`);
    else w.nestedSource(script, { kind: 'none' });
    return;
  }
  const file = argv[i];
  if (file !== undefined && !dashS) {
    if (dyn[i] === true) w.unreadable(`${cmd.name} runs a script whose path is computed`);
    else if (STDIN_PATHS.has(file)) shellReadsStdin(stdin, w, cmd.name);
    return; // a script file: what it does is the file's business, the command itself is readable
  }
  shellReadsStdin(stdin, w, cmd.name);
}

function literalArgs(cmd: SimpleCommand, dyn: boolean[], from: number, w: WalkerApi, what: string): string[] | null {
  if (dyn.slice(from).some((d) => d)) {
    w.unreadable(`${what} of a string that is not literal`);
    return null;
  }
  return cmd.argv.slice(from);
}

function findExec(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  const argv = cmd.argv;
  for (let i = 1; i < argv.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(argv[i] as string)) continue;
    let end = i + 1;
    while (end < argv.length && argv[end] !== ';' && argv[end] !== '+') end++;
    const words = argv.slice(i + 1, end);
    if (words.length > 0) w.emitArgv(words, dyn.slice(i + 1, end), words.join(' '), { kind: 'none' });
    i = end;
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
  for (const f of files) w.state.writes.push({ path: f.path, via: append ? 'tee -a' : 'tee', dynamic: f.dynamic, ...cwd });
}

/** `watch [options] CMD...` runs `sh -c "CMD..."` every few seconds (`-x`: runs CMD directly). */
function watchInvocation(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
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
    w.emitArgv(words, dyn.slice(i), words.join(' '), { kind: 'none' });
    return;
  }
  if (dyn.slice(i).some((d) => d)) w.unreadable('watch runs a string that is not literal');
  else w.nestedSource(words.join(' '), { kind: 'none' });
}

export function followInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const name = cmd.name;
  if (DIRECTORY_CHANGERS.has(name)) w.state.changesDirectory = true;
  if (SHELLS.has(name)) {
    shellInvocation(cmd, dyn, stdin, w);
    return;
  }
  if (FOREIGN_SHELLS.has(name) && (cmd.argv.length > 1 || stdin.kind !== 'none')) {
    w.unreadable(`${name} code is not bash: it cannot be read`);
    shellInvocation(cmd, dyn, stdin, w); // still look for denied commands in it
    return;
  }
  switch (name) {
    case 'eval': {
      const args = literalArgs(cmd, dyn, 1, w, 'eval');
      if (args !== null && args.length > 0) w.nestedSource(args.join(' '), stdin);
      return;
    }
    case 'source':
    case '.': {
      const file = cmd.argv[1];
      if (file === undefined) return;
      if (dyn[1] === true) w.unreadable(`${name} runs a script whose path is computed`);
      else if (STDIN_PATHS.has(file)) shellReadsStdin(stdin, w, name);
      return;
    }
    case 'trap': {
      const code = cmd.argv[1];
      if (code === undefined || cmd.argv.length < 3 || code.startsWith('-')) return;
      if (dyn[1] === true) w.unreadable('trap runs a string that is not literal');
      else w.nestedSource(code, { kind: 'none' });
      return;
    }
    case 'alias':
      cmd.argv.slice(1).forEach((a, k) => {
        const eq = a.indexOf('=');
        if (eq <= 0) return;
        if (dyn[k + 1] === true) w.unreadable('alias of a string that is not literal');
        else w.nestedSource(a.slice(eq + 1), { kind: 'none' });
      });
      return;
    case 'find':
      findExec(cmd, dyn, w);
      return;
    case 'tee':
      teeWrites(cmd, dyn, w);
      return;
    case 'watch':
      watchInvocation(cmd, dyn, w);
      return;
    default:
      return;
  }
}

/**
 * What a command writes to its stdout when that is known text (`echo 'rm -rf /' | sh`, `cat <<EOF | bash`),
 * else null.
 */
export function literalOutput(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin): string | null {
  if (dyn.some((d) => d)) return null;
  const args = cmd.argv.slice(1);
  if (cmd.name === 'echo') {
    let newline = true;
    while (args[0] !== undefined && /^-[neE]+$/.test(args[0])) {
      if ((args[0] as string).includes('e')) return null; // escapes interpreted: not worth emulating
      if ((args[0] as string).includes('n')) newline = false;
      args.shift();
    }
    return args.join(' ') + (newline ? '\n' : '');
  }
  if (cmd.name === 'printf') {
    const format = args[0];
    if (format === undefined || args.length > 1 || /[%\\]/.test(format)) return null;
    return format;
  }
  if (cmd.name === 'cat' && args.length === 0 && stdin.kind === 'literal') return stdin.text;
  return null;
}
