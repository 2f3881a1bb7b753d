import { lazyOptions } from './command-spec';
import { gitCommandOptions } from './git-commands';
import { parseOptions, type OptionSpec } from './options';
import { parallelInvocation } from './parallel';
import { programSource, stdinSource } from './program-streams';
import { runsCommand } from './runs-command';
import { NO_STDIN, UNKNOWN_STDIN, type Stdin, type WalkerApi } from '../walk/state';
import type { SimpleCommand } from '../types';

/**
 * Options that take a command (contract "Assurance: Options that take a command"): `tar --to-command=CMD`,
 * `rsync -e CMD`, `ssh -o ProxyCommand=CMD`, `git rebase -x CMD`, `npx -c CMD`, `script -c CMD`, `parallel`...
 * Their value is a command: it is parsed and judged by the deny list and the rules like any other (each one is
 * analysed as shell code, as the program hands it to a shell); a value that is not literal makes the command
 * unreadable. A closed table, per program; a program not in it is simply not read-only.
 */

/** Values of the listed option keys, in order, with whether the shell computes them. */
function valuesOf(cmd: SimpleCommand, dyn: boolean[], spec: OptionSpec, keys: string[], argv = cmd.argv) {
  const parsed = parseOptions(argv, spec);
  return keys
    .flatMap((k) => (parsed.values.get(k) ?? []).map((v) => ({ ...v, key: k })))
    .sort((a, b) => a.index - b.index)
    .map((v) => ({ ...v, dynamic: dyn[v.index] === true }));
}

const TAR = lazyOptions(
  `-I= -F= -f= -C= -T= -X= -b= -H= -K= -L= -N= -V= -g= --use-compress-program= --to-command= --checkpoint-action=
   --info-script= --new-volume-script= --rsh-command= --file= --directory= --files-from= --exclude-from= --exclude=
   --transform= --xform= --owner= --group= --mode= --mtime= --newer= --after-date= --format= --checkpoint?
   --listed-incremental= --index-file= --volno-file= --suffix= --strip-components= --blocking-factor= --record-size=
   --label= --tape-length= --starting-file= --warning= --quoting-style= --sort= --hole-detection=`,
);
/** Letters of tar's old-style first word (`tar cIf PROG x.tgz`) that take the next words as values, in order. */
const TAR_VALUE_LETTERS = 'fCTXbHKLNVgIF';

function tarWords(argv: string[]): string[] {
  const first = argv[1];
  if (first === undefined || first.startsWith('-') || !/^[A-Za-z]+$/.test(first)) return argv;
  const out = [argv[0] as string];
  const rest = argv.slice(2);
  for (const letter of first) {
    out.push(`-${letter}`);
    if (TAR_VALUE_LETTERS.includes(letter) && rest.length > 0) out.push(rest.shift() as string);
  }
  return [...out, ...rest];
}

function tarCommands(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  const argv = tarWords(cmd.argv);
  // old-style words were split: their indexes no longer match, so any computed word counts
  const anyDynamic = argv.length !== cmd.argv.length && dyn.some((d) => d);
  const keys = [
    'I',
    '--use-compress-program',
    '--to-command',
    'F',
    '--info-script',
    '--new-volume-script',
    '--rsh-command',
  ];
  for (const v of valuesOf(cmd, dyn, TAR(), [...keys, '--checkpoint-action'], argv)) {
    const dynamic = v.dynamic || anyDynamic;
    if (v.key !== '--checkpoint-action') runsCommand(w, `tar ${v.key}`, v.value, dynamic);
    else if (/^exec=/.test(v.value) || dynamic)
      runsCommand(w, 'tar --checkpoint-action', v.value.replace(/^exec=/, ''), dynamic);
  }
}

const RSYNC = lazyOptions(
  `-e= -f= -B= -T= -M= --rsh= --rsync-path= --filter= --exclude= --include= --exclude-from= --include-from=
   --files-from= --block-size= --temp-dir= --compare-dest= --copy-dest= --link-dest= --remote-option= --chmod=
   --chown= --usermap= --groupmap= --timeout= --contimeout= --port= --password-file= --log-file= --bwlimit=
   --partial-dir= --backup-dir= --suffix= --max-size= --min-size= --max-delete= --modify-window= --out-format=
   --log-file-format= --compress-choice= --compress-level= --checksum-choice= --info= --debug= --iconv=`,
);

function rsyncCommands(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  for (const v of valuesOf(cmd, dyn, RSYNC(), ['e', '--rsh', '--rsync-path']))
    runsCommand(w, `rsync ${v.key}`, v.value, v.dynamic);
}

/** ssh_config keywords whose value is a command run on this machine. */
const SSH_COMMAND_KEYS = /^(proxycommand|localcommand|knownhostscommand)$/i;
const SSH = lazyOptions('-B= -b= -c= -D= -E= -e= -F= -I= -i= -J= -L= -l= -m= -O= -o= -p= -Q= -R= -S= -W= -w=');
const SCP = lazyOptions('-c= -D= -F= -i= -J= -l= -o= -P= -S= -X=');

/** `-o 'ProxyCommand=CMD'`, `-oProxyCommand CMD`, and the same lines of a config file fed on a descriptor. */
function sshOption(w: WalkerApi, name: string, text: string, dynamic: boolean): void {
  const m = /^\s*([A-Za-z]+)\s*(?:=\s*|\s+)([\s\S]*)$/.exec(text);
  if (m === null) {
    if (dynamic) w.unreadable(`${name} -o gets an option that is not literal`);
    return;
  }
  const [, key = '', value = ''] = m;
  if (!SSH_COMMAND_KEYS.test(key)) return;
  if (!dynamic && /^none$/i.test(value.trim())) return;
  runsCommand(w, `${name} ${key}`, value, dynamic);
}

function sshCommands(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const spec = cmd.name === 'ssh' || cmd.name === 'slogin' ? SSH() : SCP();
  for (const v of valuesOf(cmd, dyn, spec, ['o', 'F', 'S', 'D'])) {
    if (v.key === 'o') sshOption(w, cmd.name, v.value, v.dynamic);
    else if (v.key === 'F') {
      // a configuration file can hold ProxyCommand: one read from a stream is code nobody sees
      const source = programSource(v.value, v.dynamic, false, stdin, w);
      if (source.kind === 'unseen') w.unreadable(`${cmd.name} -F reads its configuration from a stream: ${source.why}`);
      if (source.kind === 'literal') for (const line of source.text.split('\n')) sshOption(w, cmd.name, line, false);
    } else if (cmd.name !== 'ssh' && cmd.name !== 'slogin') {
      // scp/sftp -S PROGRAM (the transport), sftp -D PROGRAM (a local server)
      runsCommand(w, `${cmd.name} -${v.key}`, v.value, v.dynamic);
    }
  }
}

const NODE_PM = lazyOptions(
  `-c= -p= -w= -C= --call= --package= --workspace= --prefix= --dir= --cwd= --filter= --userconfig= --registry=
   --cache= --loglevel= --script-shell= --shell=`,
);

/**
 * `npm exec -c CMD`, `npx -c CMD`, `pnpm exec [-c] CMD...`, `yarn exec CMD...`: commands run in a shell; and
 * `--script-shell=PROG`/`--shell=PROG`, the program every script is run with.
 */
function packageManagerCommands(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  const parsed = parseOptions(cmd.argv, NODE_PM());
  for (const v of valuesOf(cmd, dyn, NODE_PM(), ['--script-shell', '--shell'])) {
    runsCommand(w, `${cmd.name} ${v.key}`, v.value, v.dynamic);
  }
  const sub = cmd.name === 'npx' ? 'exec' : parsed.operands[0]?.value;
  if (sub !== 'exec' && sub !== 'x' && !(cmd.name === 'pnpm' && sub === 'dlx')) return;
  for (const v of valuesOf(cmd, dyn, NODE_PM(), ['c', '--call'])) {
    if (cmd.name === 'pnpm') continue; // pnpm's -c is a flag: run the words in a shell
    runsCommand(w, `${cmd.name} exec -c`, v.value, v.dynamic);
  }
  const at = parsed.operands[0]?.index;
  if (at === undefined || sub !== 'exec' || (cmd.name !== 'pnpm' && cmd.name !== 'yarn')) return;
  // `pnpm exec [-c] CMD ARGS...` runs CMD from PATH (with node_modules/.bin first); `yarn exec` runs a shell line
  let i = at + 1;
  let shell = cmd.name === 'yarn';
  for (; i < cmd.argv.length && (cmd.argv[i] as string).startsWith('-'); i++) {
    if (cmd.argv[i] === '--') {
      i++;
      break;
    }
    if (/^(-c|--shell-mode)$/.test(cmd.argv[i] as string)) shell = true;
  }
  const words = cmd.argv.slice(i);
  if (words.length === 0) return;
  if (shell)
    runsCommand(
      w,
      `${cmd.name} exec`,
      words.join(' '),
      dyn.slice(i).some((d) => d),
      NO_STDIN,
    );
  else w.emitArgv(words, dyn.slice(i), words.join(' '), NO_STDIN);
}

const SCRIPT = lazyOptions(
  '-c= -E= -I= -O= -B= -T= -m= -o= -t? --command= --echo= --log-in= --log-out= --log-io= --log-timing= --logging-format= --output-limit= --timing?',
);

/**
 * `script [FILE]`: runs `$SHELL -c CMD` with `-c`, else an interactive shell reading its input; it writes FILE
 * (`typescript` by default) and its log options' files.
 */
function scriptInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const parsed = parseOptions(cmd.argv, SCRIPT());
  const code = valuesOf(cmd, dyn, SCRIPT(), ['c', '--command']);
  for (const v of code) runsCommand(w, 'script -c', v.value, v.dynamic, stdin);
  if (code.length === 0) {
    const source = stdinSource(stdin);
    if (source.kind === 'unseen') w.unreadable(`script runs a shell that reads its commands from its input`);
    if (source.kind !== 'file' && source.text !== undefined) w.nestedSource(source.text, UNKNOWN_STDIN, 'child');
  }
  const cwd = w.state.cwd === '' ? {} : { cwd: w.state.cwd };
  const logs = valuesOf(cmd, dyn, SCRIPT(), [
    'I',
    'O',
    'B',
    'T',
    't',
    '--log-in',
    '--log-out',
    '--log-io',
    '--log-timing',
    '--timing',
  ]);
  const file = parsed.operands[0];
  const files = [
    ...logs.filter((v) => v.value !== ''),
    file === undefined
      ? { value: 'typescript', dynamic: false }
      : { value: file.value, dynamic: dyn[file.index] === true },
  ];
  for (const f of files) w.state.writes.push({ path: f.value, via: 'script', dynamic: f.dynamic, ...cwd });
}

/** `zip -TT CMD` / `--unzip-command=CMD`: the program that tests the archive. */
function zipCommands(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  cmd.argv.forEach((a, i) => {
    if (a === '-TT' || a === '--unzip-command') runsCommand(w, `zip ${a}`, cmd.argv[i + 1] ?? '', dyn[i + 1] === true);
    else if (a.startsWith('--unzip-command=')) runsCommand(w, 'zip --unzip-command', a.slice(16), dyn[i] === true);
  });
}

/** An editor's or pager's own command that runs a shell line: `!CMD` (vim `-c '!CMD'`, `+!CMD`; less `+!CMD`). */
function bangCommand(w: WalkerApi, what: string, text: string, dynamic: boolean): void {
  const m = /^\s*:?\s*!(.*)$/s.exec(text);
  if (dynamic) w.unreadable(`${what} runs an editor command that is not literal`);
  else if (m !== null) runsCommand(w, what, m[1] as string, false);
}

/** vim/nvim/ex `-c CMD` and `+CMD`, less/more `+CMD`, `man -P PAGER`/`--pager=PAGER`. */
function editorCommands(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  const argv = cmd.argv;
  const pager = cmd.name === 'man';
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (pager && (a === '-P' || a === '--pager')) runsCommand(w, `man ${a}`, argv[++i] ?? '', dyn[i] === true);
    else if (pager && (a.startsWith('--pager=') || /^-P./.test(a))) {
      runsCommand(w, 'man --pager', a.startsWith('-P') ? a.slice(2) : a.slice(8), dyn[i] === true);
    } else if (!pager && (a === '-c' || a === '--cmd') && argv[i + 1] !== undefined) {
      bangCommand(w, `${cmd.name} ${a}`, argv[i + 1] as string, dyn[i + 1] === true);
      i++;
    } else if (!pager && a.startsWith('+')) bangCommand(w, `${cmd.name} +`, a.slice(1), dyn[i] === true);
  }
}

/** sqlite3's dot-commands that run a shell line (`.shell CMD`, `.system CMD`), given by `-cmd` or as SQL. */
function sqliteCommands(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  cmd.argv.forEach((a, i) => {
    if (i === 0) return;
    const m = /^\s*\.(shell|system)\s+([\s\S]*)$/.exec(a);
    if (m !== null) runsCommand(w, `sqlite3 .${m[1] ?? ''}`, m[2] as string, dyn[i] === true);
  });
}

/** Follows the options that take a command; true when the program is one of the table. */
export function followCommandOptions(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): boolean {
  switch (cmd.name) {
    case 'tar':
    case 'gtar':
    case 'bsdtar':
      tarCommands(cmd, dyn, w);
      return true;
    case 'rsync':
      rsyncCommands(cmd, dyn, w);
      return true;
    case 'ssh':
    case 'slogin':
    case 'scp':
    case 'sftp':
      sshCommands(cmd, dyn, stdin, w);
      return true;
    case 'npm':
    case 'npx':
    case 'pnpm':
    case 'yarn':
      packageManagerCommands(cmd, dyn, w);
      return true;
    case 'git':
      gitCommandOptions(cmd, dyn, w);
      return true;
    case 'script':
      scriptInvocation(cmd, dyn, stdin, w);
      return true;
    case 'parallel':
      parallelInvocation(cmd, dyn, stdin, w);
      return true;
    case 'zip':
      zipCommands(cmd, dyn, w);
      return true;
    case 'vim':
    case 'vi':
    case 'nvim':
    case 'ex':
    case 'view':
    case 'less':
    case 'more':
    case 'man':
      editorCommands(cmd, dyn, w);
      return true;
    case 'sqlite3':
      sqliteCommands(cmd, dyn, w);
      return true;
    default:
      return false;
  }
}
