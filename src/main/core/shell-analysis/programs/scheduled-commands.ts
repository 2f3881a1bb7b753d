import { lazyOptions } from './command-spec';
import { parseOptions } from './options';
import { programSource, stdinSource, type ProgramSource } from './program-streams';
import { UNKNOWN_STDIN, type Stdin, type WalkerApi } from '../walk/state';
import type { SimpleCommand } from '../types';

/**
 * Programs that take shell code to run later (contract "Assurance: Programs reading their program from a
 * stream"): `at`/`batch` read a script from their input or `-f FILE`, `crontab FILE|-` installs a table of
 * commands. Code fed from a stream the text does not show is unreadable; literal code is analysed, so the deny
 * list and the rules see what will run.
 */

function judge(cmd: SimpleCommand, source: ProgramSource, w: WalkerApi, commands: (text: string) => string[]): void {
  if (source.kind === 'unseen') w.unreadable(`${cmd.name} takes commands nobody can read: ${source.why}`);
  const text = source.kind === 'literal' ? source.text : source.kind === 'unseen' ? source.text : undefined;
  for (const line of text === undefined ? [] : commands(text)) w.nestedSource(line, UNKNOWN_STDIN, 'child');
}

const AT = lazyOptions('-q= -f= -t= -V -m -M -l -v -r -d -c -b');

/** `at [-f FILE] TIME`, `batch`: a shell script from the file or the input; `-l`, `-r`, `-d`, `-c` only look. */
export function atInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const parsed = parseOptions(cmd.argv, AT());
  if (parsed.flags.some((f) => /^-[a-zA-Z]*[lrdc]/.test(f) && !/^-[qft]/.test(f))) return;
  const file = (parsed.values.get('f') ?? [])[0];
  const source =
    file === undefined ? stdinSource(stdin) : programSource(file.value, dyn[file.index] === true, false, stdin, w);
  judge(cmd, source, w, (text) => [text]);
}

/** The commands of a cron table: after five time fields or an `@` schedule; `%` starts the command's input. */
function cronCommands(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || /^[A-Za-z_]\w*\s*=/.test(line)) continue;
    const m = /^@\w+\s+(.*)$/.exec(line) ?? /^(?:\S+\s+){5}(.*)$/.exec(line);
    if (m !== null) out.push((m[1] as string).split(/(?<!\\)%/)[0] as string);
  }
  return out;
}

/** `crontab FILE` or `crontab -` installs a table; `-l`, `-r`, `-e` list, remove or edit it. */
export function crontabInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const parsed = parseOptions(cmd.argv, lazyOptions('-u= -l -r -e -i -n -T -V -s')());
  if (parsed.flags.some((f) => /^-[a-zA-Z]*[lreTV]/.test(f))) return;
  const file = parsed.operands[0];
  const source =
    file === undefined ? stdinSource(stdin) : programSource(file.value, dyn[file.index] === true, true, stdin, w);
  judge(cmd, source, w, cronCommands);
}
