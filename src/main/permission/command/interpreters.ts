import path from 'node:path';
import type { Stdin, WalkerApi } from './state';
import type { SimpleCommand } from './types';

/**
 * Interpreters other than bash (contract "Assurance: Shells fed from elsewhere"): their code is not analysed, but
 * where it comes from is. A script named in the command (`python3 tool.py`) or given inline (`python3 -c CODE`)
 * is visible; a script read from a pipe, a redirect, a process substitution or standard input in any spelling
 * (`-`, `/dev/stdin`, `/dev/./stdin`, `/proc/self/fd/0`) is not: the command is unreadable.
 */
interface InterpreterSpec {
  /** Options whose value is inline code or names what runs (`-c`, `-e`, `--eval`, `python -m`). */
  code: string[];
  /** Other options that take a value (`-m module`, `-I dir`). */
  valued: string[];
}

const PYTHON: InterpreterSpec = { code: ['-c', '-m'], valued: ['-W', '-X', '-Q'] };
const NODE: InterpreterSpec = {
  code: ['-e', '--eval', '-p', '--print'],
  valued: ['-r', '--require', '--import', '--loader', '--input-type', '--conditions', '-C', '--env-file', '--title'],
};
const PERL: InterpreterSpec = { code: ['-e', '-E'], valued: [] };
const RUBY: InterpreterSpec = { code: ['-e'], valued: ['-r', '-I', '-C', '-E', '-F'] };

const SPECS = new Map<string, InterpreterSpec>([
  ['node', NODE],
  ['nodejs', NODE],
  ['bun', NODE],
  ['perl', PERL],
  ['ruby', RUBY],
  ['php', { code: ['-r'], valued: ['-c', '-d', '-z'] }],
  ['lua', { code: ['-e'], valued: ['-l'] }],
  ['luajit', { code: ['-e'], valued: ['-l', '-j', '-O'] }],
  ['Rscript', { code: ['-e'], valued: [] }],
  ['tclsh', { code: [], valued: ['-encoding'] }],
  ['wish', { code: [], valued: [] }],
  ['osascript', { code: ['-e'], valued: ['-l', '-s'] }],
  [
    'pwsh',
    {
      code: ['-c', '-Command', '-command', '-EncodedCommand'],
      valued: ['-File', '-f', '-WorkingDirectory', '-wd', '-ExecutionPolicy', '-OutputFormat', '-InputFormat'],
    },
  ],
  [
    'julia',
    { code: ['-e', '--eval', '-E', '--print'], valued: ['-L', '--load', '-J', '--project', '-t', '--threads'] },
  ],
]);

export function interpreterSpec(name: string): InterpreterSpec | undefined {
  if (/^python[0-9.]*$/.test(name) || name === 'pypy' || name === 'pypy3') return PYTHON;
  return SPECS.get(name);
}

/** `/dev/stdin`, `/dev/./stdin`, `/dev/fd/0`, `/proc/self/fd/0`, `/proc/123/fd/0`... */
export function isStdinPath(p: string): boolean {
  if (p === '-') return true;
  if (!p.startsWith('/')) return false;
  const n = path.posix.normalize(p);
  return /^\/dev\/(stdin|fd\/0)$/.test(n) || /^\/proc\/(self|thread-self|\d+)\/(fd\/0|task\/\d+\/fd\/0)$/.test(n);
}

/** Judges where an interpreter's script comes from; marks the command unreadable when it is not visible. */
export function interpreterInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const spec = interpreterSpec(cmd.name);
  if (spec === undefined) return;
  const argv = cmd.argv;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (dyn[i] === true && a.startsWith('-')) {
      w.unreadable(`${cmd.name} gets a computed option`);
      return;
    }
    if (a === '--') {
      checkScript(cmd, argv[i + 1], dyn[i + 1] === true, stdin, w);
      return;
    }
    const name = a.includes('=') ? (a.split('=')[0] as string) : a;
    if (
      spec.code.includes(name) ||
      spec.code.some((c) => c.length === 2 && a.startsWith(c) && a.length > 2 && !a.startsWith('--'))
    )
      return; // inline code
    if (spec.valued.includes(name)) {
      if (!a.includes('=')) i++;
      continue;
    }
    if (a !== '-' && a.startsWith('-')) continue; // flags
    checkScript(cmd, a, dyn[i] === true, stdin, w);
    return;
  }
  checkScript(cmd, undefined, false, stdin, w);
}

function checkScript(
  cmd: SimpleCommand,
  script: string | undefined,
  dynamic: boolean,
  stdin: Stdin,
  w: WalkerApi,
): void {
  // a here-document is the script written out in the command, like `-c CODE`: its code is known (contract "Shells
  // fed from elsewhere"), so a rule for the interpreter decides (`Bash(python:*)` allows `python - <<'PY'`)
  const written = stdin.kind === 'literal' && stdin.written === 'heredoc';
  if (script === undefined) {
    // no script: it reads one from standard input
    if (stdin.kind !== 'none' && !written) w.unreadable(`${cmd.name} runs a script from its input`);
    return;
  }
  if (dynamic) w.unreadable(`${cmd.name} runs a script whose path is computed`);
  else if (isStdinPath(script) && !written) w.unreadable(`${cmd.name} runs a script from its input (${script})`);
}
