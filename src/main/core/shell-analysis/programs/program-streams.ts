import { lazyOptions } from './command-spec';
import { descriptorStream, pathStream } from '../walk/descriptors';
import { parseOptions, type OptionSpec } from './options';
import type { Stdin, Stream, WalkerApi } from '../walk/state';
import type { SimpleCommand } from '../types';

/**
 * Programs that run a program file (contract "Assurance: Programs reading their program from a stream"). Where the
 * program comes from is judged like a shell's script: a file named in the command is visible (what it does is the
 * file's business), text written in the command is inline code (like `-c`), and anything read from a pipe, a
 * redirect, a process substitution or a descriptor in any spelling (`-`, `/dev/stdin`, `/dev/fd/N`, `/proc/...`) is
 * code nobody can see: the command is unreadable. Shells and the interpreters of interpreters.ts use the same
 * judgement for their script.
 */

/** Where a program's code comes from. */
export type ProgramSource =
  | { kind: 'file' } // a file named in the command (or none needed)
  | { kind: 'literal'; text: string; fd: number } // text written in the command: inline code
  // code only known when it runs; `text`: what the analyser expects it to be (`echo 'ls' | sh`), for the deny list
  | { kind: 'unseen'; why: string; text?: string };

/**
 * Only text bash itself hands over verbatim (a here-document or here-string without expansions) is the program
 * written out. Another program's output (`printf 'ls' | sh`) is data the analyser emulates: the deny list still
 * sees what it expects it to hold, but the program's code is not counted as seen.
 */
function fromStream(stream: Stream, word: string, fd: number): ProgramSource {
  if (stream.kind === 'literal' && stream.piped !== true) return { kind: 'literal', text: stream.text, fd };
  if (stream.kind === 'literal')
    return { kind: 'unseen', why: `it reads its program from a pipe (${word})`, text: stream.text };
  const from =
    stream.kind === 'file' ? 'a file given on a descriptor' : stream.kind === 'none' ? 'its input' : 'a stream';
  return { kind: 'unseen', why: `it reads its program from ${from} (${word})` };
}

/**
 * Judges a word naming a program file. `dash`: the program reads standard input for `-`. A computed word may be a
 * process substitution (`awk -f <(curl ...)`) or any path: unseen.
 */
export function programSource(
  word: string,
  dynamic: boolean,
  dash: boolean,
  stdin: Stdin,
  w: WalkerApi,
): ProgramSource {
  if (dynamic) return { kind: 'unseen', why: `its program file ${word} is computed (a process substitution?)` };
  const fd = word === '-' && dash ? 0 : null;
  const stream = fd === 0 ? descriptorStream(stdin, 0) : pathStream(word, stdin, w.state.cwd);
  if (stream === null) return { kind: 'file' };
  return fromStream(stream, word, descriptorOf(word));
}

/** The program read from standard input when no program file or inline code is given. */
export function stdinSource(stdin: Stdin): ProgramSource {
  if (stdin.kind === 'none') return { kind: 'file' }; // the tool's own input: nothing the command feeds it
  return fromStream(stdin, 'its input', 0);
}

function descriptorOf(word: string): number {
  const m = /\/fd\/(\d+)$/.exec(word.replace(/\/+$/, ''));
  return m === null ? 0 : Number(m[1]);
}

/** A word naming the program file, or the standard input when the program reads its program there. */
type ProgramRef = { word: string; index: number } | { stdin: true };

interface ProgramFileSpec {
  options: () => OptionSpec;
  /** Options whose value is a program file (`-f`, `--file`): `-` is standard input. */
  files: string[];
  /** Options whose value is inline code: with one, no program is read from anywhere else. */
  inline?: string[];
  /**
   * Without a program-file option: `code` the first operand is the program text (awk, sed); `files` every operand is
   * a program file and none means standard input (m4, dc); `stdin` the program is always read from standard input
   * (ed); `default` a file the program finds itself (make's Makefile).
   */
  otherwise: 'code' | 'files' | 'stdin' | 'default';
}

const AWK: ProgramFileSpec = {
  options: lazyOptions(
    '-f= -v= -F= -i= -E= -e= -l= -W= --file= --include= --exec= --source= --assign= --field-separator= --load=',
  ),
  files: ['f', '--file', 'i', '--include', 'E', '--exec'],
  inline: ['e', '--source'],
  otherwise: 'code',
};

const SPECS = new Map<string, ProgramFileSpec>([
  ['awk', AWK],
  ['gawk', AWK],
  ['mawk', AWK],
  ['nawk', AWK],
  ['original-awk', AWK],
  [
    'sed',
    {
      options: lazyOptions('-f= -e= -l= -i? -s -n -E -r -z -u --file= --expression= --line-length= --in-place?'),
      files: ['f', '--file'],
      inline: ['e', '--expression'],
      otherwise: 'code',
    },
  ],
  [
    'make',
    {
      options: lazyOptions(
        `-f= -C= -I= -o= -W= -E= -j? -l? -O? -d? --file= --makefile= --directory= --include-dir= --old-file= --assume-old=
         --what-if= --new-file= --assume-new= --eval= --jobs? --load-average? --output-sync? --debug?`,
      ),
      files: ['f', '--file', '--makefile'],
      inline: ['E', '--eval'],
      otherwise: 'default',
    },
  ],
  [
    'm4',
    {
      options: lazyOptions(
        `-D= -U= -I= -d? -o= -F= -R= -l= -L= -t= --define= --undefine= --include= --debug? --error-output=
         --freeze-state= --reload-state= --debugfile? --arglength= --nesting-limit= --trace=`,
      ),
      files: ['R', '--reload-state'],
      otherwise: 'files',
    },
  ],
  [
    'dc',
    {
      options: lazyOptions('-e= -f= --expression= --file='),
      files: ['f', '--file'],
      inline: ['e', '--expression'],
      otherwise: 'files',
    },
  ],
  ['ed', { options: lazyOptions('-p= --prompt='), files: [], otherwise: 'stdin' }],
  [
    'expect',
    {
      options: lazyOptions('-c= -f= -b= -D='),
      files: ['f', 'b'],
      otherwise: 'files',
    },
  ],
]);
for (const alias of ['gmake', 'bmake', 'pmake']) SPECS.set(alias, SPECS.get('make') as ProgramFileSpec);
for (const alias of ['gm4']) SPECS.set(alias, SPECS.get('m4') as ProgramFileSpec);

/** sqlite3: SQL after the database is inline; without it, commands (`.shell`, `.system`) come from standard input. */
function sqliteRefs(argv: string[]): ProgramRef[] {
  const valued = /^--?(init|cmd|separator|nullvalue|newline|maxsize|mmap|vfs|A|lookaside|pagecache|heap|escape)$/;
  const refs: ProgramRef[] = [];
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith('-') && a !== '-') {
      if (/^--?init$/.test(a) && argv[i + 1] !== undefined) refs.push({ word: argv[i + 1] as string, index: i + 1 });
      if (valued.test(a)) i++;
      continue;
    }
    operands.push(a);
  }
  if (operands.length < 2) refs.push({ stdin: true });
  return refs;
}

function refsOf(cmd: SimpleCommand, spec: ProgramFileSpec): ProgramRef[] {
  const parsed = parseOptions(cmd.argv, spec.options());
  const values = (keys: string[]): ProgramRef[] =>
    keys.flatMap((k) => (parsed.values.get(k) ?? []).map((v) => ({ word: v.value, index: v.index })));
  const refs = values(spec.files);
  const inline = spec.inline !== undefined && values(spec.inline).length > 0;
  if (spec.otherwise === 'stdin') return [...refs, { stdin: true }];
  if (spec.otherwise !== 'files') return refs;
  if (parsed.operands.length > 0) return [...refs, ...parsed.operands.map((o) => ({ word: o.value, index: o.index }))];
  return refs.length > 0 || inline ? refs : [{ stdin: true }];
}

/** Program text given inline that the shell computes (`awk "$(curl ...)" f`, `sed -e "$S"`): not literal. */
function computedInline(cmd: SimpleCommand, dyn: boolean[], spec: ProgramFileSpec, w: WalkerApi): void {
  const parsed = parseOptions(cmd.argv, spec.options());
  const inline = (spec.inline ?? []).flatMap((k) => parsed.values.get(k) ?? []);
  const byFile = spec.files.some((k) => (parsed.values.get(k) ?? []).length > 0);
  const texts = [
    ...inline,
    ...(spec.otherwise === 'code' && !byFile && inline.length === 0 ? parsed.operands.slice(0, 1) : []),
  ];
  if (texts.some((t) => dyn[t.index] === true)) w.unreadable(`${cmd.name} runs a program that is not literal`);
}

/** True for the programs of the table (so followInvocation knows to call the check below). */
export function runsProgramFile(name: string): boolean {
  return SPECS.has(name) || name === 'sqlite3';
}

/**
 * Marks the command unreadable when a program of the table reads its program from a stream the text does not
 * show. A literal feed is inline code: the call is `exec` like any program given its program in the command.
 */
export function checkProgramFiles(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const spec = SPECS.get(cmd.name);
  if (spec !== undefined) computedInline(cmd, dyn, spec, w);
  const refs = cmd.name === 'sqlite3' ? sqliteRefs(cmd.argv) : spec === undefined ? [] : refsOf(cmd, spec);
  for (const ref of refs) {
    const source =
      'stdin' in ref ? stdinSource(stdin) : programSource(ref.word, dyn[ref.index] === true, true, stdin, w);
    if (source.kind === 'unseen') w.unreadable(`${cmd.name} runs a program nobody can read: ${source.why}`);
  }
}
