import { NO_STDIN, UNKNOWN_STDIN, type Stdin, type WalkerApi } from '../walk/state';
import type { SimpleCommand } from '../types';
import { joinDirectory } from '../walk/working-directory';

/**
 * GNU `parallel` (contract "Assurance: Options that take a command"): it runs its command line through a shell
 * once per argument, with the argument inserted (shell-quoted) where a replacement string (`{}`, `{.}`, `{1}`...)
 * stands, or appended. With literal arguments (`::: a b`, or literal text on its input) each job is analysed like
 * any command; with arguments only known when it runs (`:::: file`, a pipe) the jobs' code is not all visible: the
 * command is unreadable, and its command line is still analysed for the deny list. Without a command line the
 * arguments themselves are the command lines. Options outside this closed list make the command unreadable.
 */

const FLAGS = new Set(
  `-k --keep-order -u --ungroup --line-buffer --lb --tag --dry-run --dryrun -v --verbose --bar --eta --progress
   --will-cite --no-notice --nn -0 --null -X -m --group -g -r --no-run-if-empty --plain --silent --pipe --spreadstdin
   --shuf --xargs --linebuffer --keep-order`.split(/\s+/),
);
const VALUED = new Set(
  `-j --jobs -P -n --max-args -N -L --max-lines -s --max-chars -d --delimiter -E -I --colsep -C --timeout --retries
   --delay --halt --halt-on-error --joblog --results --res --tmpdir --workdir --wd --block --block-size --tagstring
   --memfree --load -a --arg-file --arg-sep --arg-file-sep`.split(/\s+/),
);
/** The most jobs analysed one by one; more literal arguments than this are not followed. */
const MAX_JOBS = 256;
const SEPARATOR = /^::::?\+?$/;

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./=:,+@%^-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Replaces the replacement strings of one job; null when the template uses one we do not model (`{= perl =}`). */
function job(template: string, args: string[], replace: string, number: number): string | null {
  if (/\{=/.test(template)) return null;
  const quoted = args.map(shellQuote);
  let used = false;
  const stem = (a: string): string => a.replace(/\.[^./]*$/, '');
  const base = (a: string): string => a.replace(/.*\//, '');
  const dir = (a: string): string => (a.includes('/') ? a.replace(/\/[^/]*$/, '') || '/' : '.');
  const forms: [RegExp, (a: string) => string][] = [
    [/\{(\d+)?\}/g, (a) => a],
    [/\{(\d+)?\.\}/g, stem],
    [/\{(\d+)?\/\}/g, base],
    [/\{(\d+)?\/\/\}/g, dir],
    [/\{(\d+)?\/\.\}/g, (a) => stem(base(a))],
  ];
  let text = template;
  if (replace !== '{}') text = text.split(replace).join('\0R');
  text = text.replace(/\{#\}|\{%\}/g, () => String(number));
  for (const [re, f] of forms) {
    text = text.replace(re, (_m, n: string | undefined) => {
      used = true;
      const picked = n === undefined ? args : [args[Number(n) - 1] ?? ''];
      return picked.map((a) => shellQuote(f(a))).join(' ');
    });
  }
  if (text.includes('\0R')) {
    used = true;
    text = text.split('\0R').join(quoted.join(' '));
  }
  return used ? text : `${text} ${quoted.join(' ')}`;
}

export function parallelInvocation(cmd: SimpleCommand, dyn: boolean[], stdin: Stdin, w: WalkerApi): void {
  const argv = cmd.argv;
  let replace = '{}';
  let pipe = false;
  let fromFile = false;
  let workdir: { dir: string; dynamic: boolean } | null = null;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || SEPARATOR.test(a)) break;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (FLAGS.has(name)) {
      if (name === '--pipe' || name === '--spreadstdin') pipe = true;
      continue;
    }
    const attached = /^-[jPnNLsdEICa]./.test(a) ? a.slice(2) : eq > 0 ? a.slice(eq + 1) : null;
    const key = /^-[jPnNLsdEICa]./.test(a) ? a.slice(0, 2) : name;
    if (!VALUED.has(key)) {
      w.unreadable(`parallel option ${a} is not understood`);
      return;
    }
    const index = attached === null ? i + 1 : i;
    const value = attached ?? argv[++i];
    if (value === undefined) break;
    if (key === '-I') replace = value;
    if (key === '-a' || key === '--arg-file') fromFile = true;
    if (key === '--workdir' || key === '--wd') workdir = { dir: value, dynamic: dyn[index] === true };
    if (key === '--joblog' || key === '--results' || key === '--res') {
      const cwd = w.state.cwd === '' ? {} : { cwd: w.state.cwd };
      w.state.writes.push({ path: value, via: 'parallel', dynamic: dyn[index] === true, ...cwd });
    }
  }
  const end = argv.findIndex((a, k) => k >= i && SEPARATOR.test(a));
  const templateEnd = end < 0 ? argv.length : end;
  const template = argv.slice(i, templateEnd);
  const templateDynamic = dyn.slice(i, templateEnd).some((d) => d);
  // the argument lists: `::: words`, `:::+ words` (paired with the previous list), `:::: files` (unknown)
  const lists: { words: string[]; linked: boolean }[] = [];
  let known = !fromFile;
  for (let k = templateEnd; k < argv.length;) {
    const sep = argv[k] as string;
    let e = k + 1;
    while (e < argv.length && !SEPARATOR.test(argv[e] as string)) e++;
    if (sep.startsWith('::::') || dyn.slice(k + 1, e).some((d) => d)) known = false;
    lists.push({ words: argv.slice(k + 1, e), linked: sep.endsWith('+') });
    k = e;
  }
  if (lists.length === 0 && !fromFile) {
    // arguments from the input, one per line
    if (stdin.kind === 'literal' && !pipe)
      lists.push({ words: stdin.text.split('\n').filter((l) => l !== ''), linked: false });
    else known = false;
  }
  const jobs = known ? combinations(lists) : null;
  const jobStdin = pipe ? UNKNOWN_STDIN : NO_STDIN;
  const outer = w.state.cwd;
  if (workdir !== null) w.state.cwd = joinDirectory(outer, workdir.dir, workdir.dynamic);
  try {
    if (jobs === null || templateDynamic) {
      w.unreadable('parallel runs its command line with arguments only known when it runs');
      if (template.length > 0 && !templateDynamic) w.nestedSource(template.join(' '), jobStdin, 'child');
      return;
    }
    jobs.forEach((args, n) => {
      const text = template.length === 0 ? args.join(' ') : job(template.join(' '), args, replace, n + 1);
      if (text === null) w.unreadable('parallel runs a replacement string that is code ({= ... =})');
      else w.nestedSource(text, jobStdin, 'child');
    });
  } finally {
    w.state.cwd = outer;
  }
}

/** Every job's arguments: the product of the lists, a `:::+` list paired with the one before it; null if too many. */
function combinations(lists: { words: string[]; linked: boolean }[]): string[][] | null {
  let jobs: string[][] = [[]];
  for (const list of lists) {
    if (list.linked && jobs.length > 0) {
      jobs = jobs.slice(0, list.words.length).map((args, k) => [...args, list.words[k] as string]);
      continue;
    }
    if (jobs.length * list.words.length > MAX_JOBS) return null;
    jobs = jobs.flatMap((args) => list.words.map((word) => [...args, word]));
  }
  return jobs;
}
