import { lazyOptions } from './command-spec';
import { parseOptions, type OptionSpec } from './options';
import { runsCommand } from './runs-command';
import { NO_STDIN, type WalkerApi } from '../walk/state';
import type { SimpleCommand } from '../types';

/**
 * git's options and settings that take a command (contract "Assurance: Options that take a command"): `git -c
 * core.sshCommand=CMD`, `git config alias.x '!CMD'`, `git rebase -x CMD`, `git bisect run CMD`, `git submodule
 * foreach CMD`, `git filter-branch --tree-filter CMD`, `--upload-pack=CMD`... Each command is judged by the deny
 * list and the rules like any other. A closed table; other settings are data.
 */

const GLOBAL = lazyOptions(
  '-C= -c= --git-dir= --work-tree= --namespace= --config-env= --super-prefix= --exec-path? --list-cmds=',
);

/** Settings whose value is a command git runs (section.key or section.<name>.key, compared in lower case). */
const COMMAND_SETTING =
  /^(core\.(sshcommand|pager|editor|askpass|fsmonitor|gitproxy)|sequence\.editor|diff\.external|diff\..+\.(command|textconv)|difftool\..+\.cmd|merge\..+\.driver|mergetool\..+\.cmd|filter\..+\.(clean|smudge|process)|credential(\..+)?\.helper|gpg(\..+)?\.program|pager\..+|alias\..+|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack)|sendemail\.(sendmailcmd|tocmd|cccmd|headercmd)|browser\..+\.cmd|man\..+\.cmd|guitool\..+\.cmd)$/;
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** The lower-cased name of a setting: section and key are case-insensitive, a subsection is not (kept as is). */
function settingName(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

/** Judges `key=value` when the setting runs a command. */
function setting(w: WalkerApi, key: string, value: string, dynamic: boolean): void {
  const name = settingName(key);
  if (!COMMAND_SETTING.test(name)) return;
  if (dynamic) {
    w.unreadable(`git setting ${key} gets a command that is not literal`);
    return;
  }
  if (name.startsWith('alias.')) {
    // `!CMD` is a shell line; anything else is more git arguments (which may carry `-c` settings of their own)
    runsCommand(w, `git ${key}`, value.startsWith('!') ? value.slice(1) : `git ${value}`, false, NO_STDIN);
    return;
  }
  if (/^(core\.fsmonitor|pager\..+)$/.test(name) && BOOLEAN.test(value.trim())) return;
  if (/credential/.test(name)) {
    // `!CMD` runs in a shell, a path runs as is, a bare name is git's own `git credential-NAME`
    if (value.startsWith('!')) runsCommand(w, `git ${key}`, value.slice(1), false, NO_STDIN);
    else if (value.startsWith('/') || value.startsWith('~')) runsCommand(w, `git ${key}`, value, false, NO_STDIN);
    return;
  }
  runsCommand(w, `git ${key}`, value, false, NO_STDIN);
}

const CONFIG = lazyOptions('-f= -t= --file= --blob= --type= --default= --comment= --value=');

/** `git config [opts] KEY VALUE`, `git config set KEY VALUE`, `git config --add KEY VALUE` (not the reading forms). */
function configCommand(argv: string[], dyn: boolean[], start: number, w: WalkerApi): void {
  const parsed = parseOptions(argv, CONFIG(), start);
  if (
    parsed.flags.some((f) =>
      /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l|--unset|--unset-all|--remove-section|--rename-section|--edit|-e)$/.test(
        f,
      ),
    )
  )
    return;
  let ops = parsed.operands;
  if (ops[0]?.value === 'set') ops = ops.slice(1);
  else if (['get', 'list', 'unset', 'remove-section', 'rename-section', 'edit'].includes(ops[0]?.value ?? '')) return;
  const [key, value] = ops;
  if (key === undefined || value === undefined) return;
  if (dyn[key.index] === true) {
    w.unreadable('git config sets a setting whose name is computed');
    return;
  }
  setting(w, key.value, value.value, dyn[value.index] === true);
}

/** Subcommand options whose value is a shell command (`keys`) or a `KEY=VALUE` setting (`settings`). */
interface SubOptions {
  options: () => OptionSpec;
  keys: string[];
  settings?: string[];
}

const subOptions = (spec: string, keys: string[], settings?: string[]): SubOptions => ({
  options: lazyOptions(spec),
  keys,
  ...(settings === undefined ? {} : { settings }),
});

const SUB_OPTIONS = new Map<string, SubOptions>([
  [
    'rebase',
    subOptions('-x= --exec= -s= -X= -C= --onto= --strategy= --strategy-option= -S? --gpg-sign?', ['x', '--exec']),
  ],
  [
    'filter-branch',
    subOptions(
      `--env-filter= --tree-filter= --index-filter= --parent-filter= --msg-filter= --commit-filter= --tag-name-filter=
       --subdirectory-filter= --prune-empty -d= --original= --state-branch= --setup=`,
      [
        '--env-filter',
        '--tree-filter',
        '--index-filter',
        '--parent-filter',
        '--msg-filter',
        '--commit-filter',
        '--tag-name-filter',
        '--setup',
      ],
    ),
  ],
  ['difftool', subOptions('-x= --extcmd= -t= --tool=', ['x', '--extcmd'])],
  ['fetch', subOptions('--upload-pack= -j= --depth=', ['--upload-pack'])],
  ['pull', subOptions('--upload-pack= -j= --depth= -s= -X=', ['--upload-pack'])],
  [
    'clone',
    subOptions(
      '-u= --upload-pack= -b= -o= -c= --config= --depth= --template= --reference= --separate-git-dir=',
      ['u', '--upload-pack'],
      ['c', '--config'],
    ),
  ],
  ['ls-remote', subOptions('--upload-pack= --sort=', ['--upload-pack'])],
  ['archive', subOptions('--exec= --remote= -o= --output= --format= --prefix=', ['--exec'])],
  ['push', subOptions('--receive-pack= --exec= -o= --push-option= --repo=', ['--receive-pack', '--exec'])],
  [
    'send-email',
    subOptions('--to-cmd= --cc-cmd= --header-cmd= --sendmail-cmd= --smtp-server= --to= --cc= --from=', [
      '--to-cmd',
      '--cc-cmd',
      '--header-cmd',
      '--sendmail-cmd',
    ]),
  ],
]);

/** `KEY=VALUE` given to `git -c` or `git clone -c`. */
function settingWord(w: WalkerApi, text: string, dynamic: boolean): void {
  const eq = text.indexOf('=');
  if (eq > 0) setting(w, text.slice(0, eq), text.slice(eq + 1), dynamic);
  else if (dynamic) w.unreadable('git -c gets a setting that is not literal');
}

/** `ext::CMD ARGS` URLs run CMD (git-remote-ext): `% ` is a space, `%%` a percent sign. */
function extTransports(argv: string[], dyn: boolean[], w: WalkerApi): void {
  argv.forEach((a, i) => {
    const m = /^(?:.*=)?ext::(.*)$/s.exec(a);
    if (m === null) return;
    const text = (m[1] as string).replace(/%(.)/g, (_x, c: string) => (c === ' ' ? ' ' : c === '%' ? '%' : `%${c}`));
    runsCommand(w, 'git ext:: transport', text, dyn[i] === true, NO_STDIN);
  });
}

export function gitCommandOptions(cmd: SimpleCommand, dyn: boolean[], w: WalkerApi): void {
  const argv = cmd.argv;
  extTransports(argv, dyn, w);
  const global = parseOptions(argv, GLOBAL());
  for (const v of global.values.get('c') ?? []) settingWord(w, v.value, dyn[v.index] === true);
  for (const v of global.values.get('--config-env') ?? []) {
    // `--config-env=KEY=ENVVAR`: the value comes from the environment
    const key = v.value.slice(0, Math.max(0, v.value.indexOf('=')));
    setting(w, key, '', true);
  }
  const subAt = global.operands[0];
  if (subAt === undefined) return;
  const sub = subAt.value;
  const rest = argv.slice(subAt.index);
  const restDyn = dyn.slice(subAt.index);
  if (sub === 'config') {
    configCommand(argv, dyn, subAt.index + 1, w);
    return;
  }
  if (sub === 'bisect' && rest[1] === 'run' && rest.length > 2) {
    w.emitArgv(rest.slice(2), restDyn.slice(2), rest.slice(2).join(' '), NO_STDIN);
    return;
  }
  if (sub === 'submodule') {
    const at = rest.indexOf('foreach');
    if (at < 0) return;
    let i = at + 1;
    while (rest[i] === '--recursive' || rest[i] === '-q' || rest[i] === '--quiet') i++;
    runsCommand(
      w,
      'git submodule foreach',
      rest.slice(i).join(' '),
      restDyn.slice(i).some((d) => d),
      NO_STDIN,
    );
    return;
  }
  const spec = SUB_OPTIONS.get(sub);
  if (spec === undefined) return;
  const parsed = parseOptions(rest, spec.options(), 1);
  for (const key of spec.keys) {
    for (const v of parsed.values.get(key) ?? [])
      runsCommand(w, `git ${sub} ${key}`, v.value, restDyn[v.index] === true, NO_STDIN);
  }
  for (const key of spec.settings ?? []) {
    for (const v of parsed.values.get(key) ?? []) settingWord(w, v.value, restDyn[v.index] === true);
  }
}
