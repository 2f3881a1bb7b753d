import { programSource, stdinSource } from './program-streams';
import type { Stdin, WalkerApi } from '../walk/state';
import type { SimpleCommand } from '../types';

/**
 * Interpreters other than bash (contract "Assurance: Shells fed from elsewhere"): their code is not analysed, but
 * where it comes from is (program-streams.ts). A script named in the command (`python3 tool.py`) or given inline
 * (`python3 -c CODE`) is visible, and so is literal text fed on the descriptor it reads (`python3 - <<'PY'`,
 * `python3 /dev/fd/3 3<<'EOF'`): that is inline code. A script read from a pipe, a redirect, a process
 * substitution or a descriptor in any other spelling (`curl ... | python3 -`, `python3 <(curl ...)`,
 * `python3 /proc/self/fd/0`) is not: the command is unreadable.
 */
interface InterpreterSpec {
  /** Options whose value is inline code or names what runs (`-c`, `-e`, `--eval`, `python -m`). */
  code: string[];
  /** Other options that take a value (`-m module`, `-I dir`). */
  valued: string[];
  /** Options whose value is the script file (`php -f FILE`, `R --file=FILE`). */
  file?: string[];
  /** A code option given `-` reads the code from standard input (`pwsh -Command -`). */
  codeDash?: true;
  /** A subcommand before the options and the script (`deno run`, `bun run`). */
  subcommand?: string;
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
  ['bun', { ...NODE, subcommand: 'run' }],
  [
    'deno',
    {
      code: ['eval'],
      valued: ['--config', '-c', '--import-map', '--lock', '--cert', '-L', '--location', '--seed', '--env-file'],
      subcommand: 'run',
    },
  ],
  ['perl', PERL],
  ['ruby', RUBY],
  ['php', { code: ['-r'], valued: ['-c', '-d', '-z'], file: ['-f'] }],
  ['lua', { code: ['-e'], valued: ['-l'] }],
  ['luajit', { code: ['-e'], valued: ['-l', '-j', '-O'] }],
  ['Rscript', { code: ['-e'], valued: [] }],
  ['R', { code: ['-e'], valued: ['-g', '--gui', '-d', '--debugger'], file: ['-f', '--file'] }],
  ['tclsh', { code: [], valued: ['-encoding'] }],
  ['wish', { code: [], valued: [] }],
  ['osascript', { code: ['-e'], valued: ['-l', '-s'] }],
  [
    'pwsh',
    {
      code: ['-c', '-Command', '-command', '-EncodedCommand'],
      valued: ['-WorkingDirectory', '-wd', '-ExecutionPolicy', '-OutputFormat', '-InputFormat'],
      file: ['-File', '-f', '-file'],
      codeDash: true,
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

/** Judges where an interpreter's script comes from; marks the command unreadable when it is not visible. */
export function interpreterInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const spec = interpreterSpec(cmd.name);
  if (spec === undefined) return;
  const argv = cmd.argv;
  for (let i = spec.subcommand !== undefined && argv[1] === spec.subcommand ? 2 : 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (dyn[i] === true && a.startsWith('-')) {
      w.unreadable(`${cmd.name} gets a computed option`);
      return;
    }
    if (a === '--') {
      checkScript(cmd, i + 1, dyn, stdin, w);
      return;
    }
    const name = a.includes('=') ? (a.split('=')[0] as string) : a;
    if (spec.code.includes(name)) {
      // inline code: visible when literal (`python3 -c "$(curl ...)"` runs code from a pipe)
      if (!a.includes('=') && dyn[i + 1] === true) w.unreadable(`${cmd.name} ${a} runs code that is not literal`);
      if (spec.codeDash === true && argv[i + 1] === '-') checkScript(cmd, argv.length, dyn, stdin, w);
      return;
    }
    if (spec.code.some((c) => c.length === 2 && a.startsWith(c) && a.length > 2 && !a.startsWith('--'))) return;
    if (spec.file?.includes(name) === true) {
      if (a.includes('=')) checkFile(cmd, a.slice(a.indexOf('=') + 1), dyn[i] === true, stdin, w);
      else checkScript(cmd, i + 1, dyn, stdin, w);
      return;
    }
    if (spec.valued.includes(name)) {
      if (!a.includes('=')) i++;
      continue;
    }
    if (a !== '-' && a.startsWith('-')) continue; // flags
    checkScript(cmd, i, dyn, stdin, w);
    return;
  }
  checkScript(cmd, argv.length, dyn, stdin, w);
}

/** The script at argv[index], or (past the end) the one read from standard input. */
function checkScript(cmd: SimpleCommand, index: number, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const script = cmd.argv[index];
  if (script === undefined) {
    const source = stdinSource(stdin);
    if (source.kind === 'unseen') w.unreadable(`${cmd.name} runs a script from its input`);
    return;
  }
  checkFile(cmd, script, dyn[index] === true, stdin, w);
}

function checkFile(cmd: SimpleCommand, script: string, dynamic: boolean, stdin: Stdin, w: WalkerApi): void {
  if (dynamic) {
    w.unreadable(`${cmd.name} runs a script whose path is computed`);
    return;
  }
  const source = programSource(script, false, true, stdin, w);
  if (source.kind === 'unseen') w.unreadable(`${cmd.name} runs a script from its input (${script}): ${source.why}`);
}
