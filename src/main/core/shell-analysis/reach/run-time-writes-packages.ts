import type { RunTimeReach } from './run-time-reach';
import type { SimpleCommand } from '../types';

/**
 * Package managers installing into a project (contract "Assurance: Run-time write targets"): which files an install
 * writes is decided by the packages, so its reach is what it installs into in the folder it works in
 * (`--prefix`/`-C`/`--dir`/`--cwd`, or the working directory): `node_modules/` (wherever it really leads) and the
 * manifest and lock files beside it. A global install (`-g`) writes outside the project. `npm pack` writes one
 * tarball named by the package into its destination. The code packages run while installing (lifecycle scripts) is
 * the sandbox's to bound, like any other program's.
 */

const INSTALLS: Record<string, Set<string>> = {
  npm: new Set(
    `install i in ins inst insta instal isnt isnta isntal isntall add ci clean-install ic install-clean isntall-clean
     install-ci-test cit clean-install-test sit install-test it update up upgrade udpate uninstall unlink remove rm r un
     dedupe ddp prune link ln rebuild rb`
      .split(/\s+/)
      .filter(Boolean),
  ),
  pnpm: new Set(
    'install i add update up upgrade remove rm un uninstall import fetch link ln unlink prune dedupe rebuild rb'.split(
      ' ',
    ),
  ),
  yarn: new Set('install add upgrade up remove dedupe import link unlink'.split(' ')),
  bun: new Set('install i add a remove rm update link unlink'.split(' ')),
};

/** What an install writes in the folder it works in. */
const INSTALLED = [
  'node_modules',
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  '.yarn',
  '.pnp.cjs',
  '.pnp.loader.mjs',
];

/** Options naming the folder a package manager works in (its value is the next word unless attached with `=`). */
const FOLDER_OPTIONS = new Set(['--prefix', '-C', '--dir', '--cwd', '--cache-dir']);
/** Options that take a value as the next word (so the value is not the subcommand). */
const VALUED = new Set([
  ...FOLDER_OPTIONS,
  '--workspace',
  '-w',
  '--filter',
  '-F',
  '--registry',
  '--userconfig',
  '--loglevel',
]);

function packageManager(cmd: SimpleCommand): RunTimeReach[] {
  const installs = INSTALLS[cmd.name];
  if (installs === undefined) return [];
  const folders: { value: string; index: number }[] = [];
  let sub: string | null = null;
  let global = false;
  let packDestination: { value: string; index: number } | null = null;
  for (let i = 1; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    if (a === '--') break;
    if (a.startsWith('-')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(0, eq) : a;
      if (name === '-g' || name === '--global' || a === '--location=global') global = true;
      const value =
        eq > 0
          ? { value: a.slice(eq + 1), index: i }
          : VALUED.has(name) || name === '--pack-destination'
            ? { value: cmd.argv[i + 1] ?? '', index: ++i }
            : null;
      if (value !== null && FOLDER_OPTIONS.has(name) && name !== '--cache-dir') folders.push(value);
      if (value !== null && name === '--pack-destination') packDestination = value;
      continue;
    }
    sub ??= a;
  }
  // `yarn` alone installs
  if (sub === null && cmd.name === 'yarn') sub = 'install';
  if (sub === 'pack' && cmd.name !== 'bun') {
    const dest = packDestination ?? folders[0] ?? { value: '.', index: -1 };
    const why = `${cmd.name} pack writes the package's tarball`;
    return [{ value: `${dest.value}/(package tarball).tgz`, index: dest.index, scope: 'below', why }];
  }
  if (sub === null || !installs.has(sub) || global) return [];
  const why = `${cmd.name} ${sub} writes the packages' files`;
  // the working directory too: whether the folder option moves it or names another project, both are reached
  const dirs = [{ value: '.', index: -1 }, ...folders];
  return dirs.flatMap((d) =>
    INSTALLED.map((name) => ({
      value: d.value === '.' ? name : `${d.value}/${name}`,
      index: d.index,
      scope: 'below' as const,
      followsLinks: false,
      why,
    })),
  );
}

/** pip: `--target`, `--prefix`, `--root`, `--src` folders of an install; `download -d` / `wheel -w` destinations. */
function pip(cmd: SimpleCommand): RunTimeReach[] {
  const sub = cmd.argv.slice(1).find((a) => !a.startsWith('-'));
  const names =
    sub === 'install'
      ? ['-t', '--target', '--prefix', '--root', '--src', '-e', '--editable']
      : sub === 'download'
        ? ['-d', '--dest']
        : sub === 'wheel'
          ? ['-w', '--wheel-dir']
          : [];
  const why = `pip ${sub ?? ''} writes the packages' files`;
  const out: RunTimeReach[] = [];
  for (let i = 1; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!names.includes(name)) continue;
    const value = eq > 0 ? { value: a.slice(eq + 1), index: i } : { value: cmd.argv[i + 1] ?? '', index: ++i };
    if (value.value !== '') out.push({ ...value, scope: 'below', why });
  }
  return out;
}

export function packageReaches(cmd: SimpleCommand): RunTimeReach[] {
  if (cmd.name === 'pip' || cmd.name === 'pip3' || /^pip3\.\d+$/.test(cmd.name)) return pip(cmd);
  return packageManager(cmd);
}
