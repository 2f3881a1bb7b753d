/**
 * Generator pieces for the engine's open sets (issue 44, item 5) in the read-only differential test: programs fed
 * their program on a descriptor, working-directory options, options and wrappers that take a command, environment
 * assignments, builtins with callbacks and `coproc`. Each piece is written so that, were the engine to call it
 * read-only by mistake, the trace would show it: a read outside the project, a program outside the read-only set.
 */
import fc from 'fast-check';
import type { FixturePaths } from './readonly-script-gen';

const pick = <T>(...items: T[]): fc.Arbitrary<T> => fc.constantFrom(...items);

/** A reader and a path (inside, or one of the outside spellings): one line of shell. */
function readLine(): fc.Arbitrary<string> {
  return fc
    .tuple(
      pick('cat', 'head -n 1', 'wc -l', 'grep x', 'tail -n 1', 'od -c', 'ls'),
      pick(
        'notes.md',
        'src/a.ts',
        'docs/readme.md',
        '../outside/secret.txt',
        'link-out/secret.txt',
        '~/.ssh/id_rsa',
        'secret.txt',
        'a.ts',
        'file.txt',
        '../notes.md',
      ),
    )
    .map(([r, p]) => `${r} ${p}`);
}

const squote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Shells and interpreters given their program on a descriptor: literal (read as a script) or not (unreadable). */
function descriptorFed(f: FixturePaths): fc.Arbitrary<string> {
  const sh = pick('bash', 'sh', 'dash');
  return fc.tuple(sh, readLine(), readLine(), fc.nat(17)).map(([s, a, b, n]) => {
    const forms = [
      `${s} <<'EOF'\n${a}\n${b}\nEOF`,
      `${s} -s <<< ${squote(a)}`,
      `${s} /dev/stdin <<< ${squote(a)}`,
      `${s} /dev/./stdin <<'EOF'\n${a}\nEOF`,
      `${s} /dev/fd/3 3<<'EOF'\n${a}\nEOF`,
      `${s} /proc/self/fd/0 <<< ${squote(a)}`,
      `${s} <<EOF\n${a}\nEOF`,
      `echo ${squote(a)} | ${s}`,
      `${s} < env.sh`,
      `${s} <(cat env.sh)`,
      `${s} /dev/fd/3 3< env.sh`,
      `cat env.sh | ${s} /dev/stdin`,
      `source /dev/stdin <<< ${squote(a)}`,
      `{ ${s} /dev/fd/3; } 3<<'EOF'\n${a}\nEOF`,
      `${s} <<'EOF'\n${s}\n${a}\nEOF`,
      `${s} -c ${squote(`${s} /dev/fd/3`)} 3<<'EOF'\n${a}\nEOF`,
      `awk -f - notes.md <<'EOF'\n{ print }\nEOF`,
      `sed -n -f /dev/stdin ${f.outside}/secret.txt <<< p`,
    ];
    return forms[n % forms.length] as string;
  });
}

/** Working-directory changers: `env -C`, subshells with `cd`, `find -execdir`, wrappers around them. */
function directoryChangers(): fc.Arbitrary<string> {
  const dir = pick(
    'src',
    'sub/deep',
    '..',
    'link-out',
    'link-in',
    '/tmp',
    '~',
    'sub/../..',
    'link-out/..',
    '"$OLDPWD"',
    'docs',
  );
  const wrap = pick('', 'nice -n 5 ', 'timeout 5 ', 'command ', 'stdbuf -o0 ', 'setsid ', 'env ');
  return fc.tuple(dir, readLine(), wrap, fc.nat(9)).map(([d, line, w, n]) => {
    const forms = [
      `${w}env -C ${d} ${line}`,
      `env --chdir=${d} ${line}`,
      `env -iC ${d} ${line}`,
      `env -C${d} ${line}`,
      `env -C ${d} sh -c ${squote(line)}`,
      `(cd ${d}; ${line})`,
      `(cd ${d} && ${line})`,
      `echo "$(cd ${d} && ${line})"`,
      `find ${d} -maxdepth 1 -execdir ${line} \\;`,
      `${w}${line}`,
    ];
    return forms[n % forms.length] as string;
  });
}

/** Options and wrappers that take a command: never read-only, whatever they run. */
function commandTakers(): fc.Arbitrary<string> {
  return fc.tuple(readLine(), fc.nat(13)).map(([line, n]) => {
    const forms = [
      `taskset 1 ${line}`,
      `flock notes.md ${line}`,
      `flock notes.md -c ${squote(line)}`,
      `chrt -o 0 ${line}`,
      `unshare -r ${line}`,
      `setpriv --no-new-privs ${line}`,
      `tar --to-command=${squote(line)} -xf x.tar`,
      `rsync -e ${squote(line)} a b`,
      `ssh -o ProxyCommand=${squote(line)} host`,
      `script -qc ${squote(line)} /dev/null`,
      `parallel ${line} ::: x`,
      `env -S ${squote(line)}`,
      `git -c core.pager=${squote(line)} log`,
      `watch -n 1 ${line}`,
    ];
    return forms[n % forms.length] as string;
  });
}

/** Assignments of inert names (read-only) and of names that make a program load code (never read-only). */
function environment(): fc.Arbitrary<string> {
  const inert = pick('LC_ALL=C', 'LANG=C.UTF-8', 'TZ=UTC', 'NO_COLOR=1', 'CI=true');
  const loading = pick(
    'BASH_ENV=env.sh',
    'ENV=env.sh',
    'HOME=.',
    'RIPGREP_CONFIG_PATH=rg.conf',
    'XDG_CONFIG_HOME=.',
    'ZDOTDIR=.',
  );
  const program = pick('bash -c ls', 'bash -lc ls', 'sh -c ls', 'rg x', 'cat notes.md', 'ls', 'bash -l');
  return fc
    .tuple(fc.oneof(inert, loading), program, pick('', 'env ', 'export '))
    .map(([a, p, how]) => (how === 'export ' ? `export ${a}; ${p}` : `${how}${a} ${p}`));
}

/** Builtins that run a string as code: the callback reads outside the project. */
function callbacks(): fc.Arbitrary<string> {
  return pick(
    "mapfile -C 'cat ../outside/secret.txt' -c 1 x < notes.md",
    "readarray -t -C 'cat ../outside/secret.txt' -c 1 x < notes.md",
    "compgen -W '$(cat ../outside/secret.txt)' x",
    "complete -C 'cat ../outside/secret.txt' x; compgen -C 'cat ../outside/secret.txt' x",
    "trap 'cat ../outside/secret.txt' EXIT; ls",
    "PS4='$(cat ../outside/secret.txt)'; set -x; true",
    "PS4='$(cat ../outside/secret.txt)' bash -xc true",
    'hash -p /bin/cat ls; ls ../outside/secret.txt',
  );
}

function coprocs(): fc.Arbitrary<string> {
  return fc
    .tuple(readLine(), pick('', 'X '))
    .map(([line, name]) => (name === '' ? `coproc ${line}` : `coproc ${name}{ ${line}; }`));
}

/** The open sets' pieces, each alone or after a list of ordinary commands. */
export function openSets(f: FixturePaths, list: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const pieces = [
    { weight: 3, arbitrary: descriptorFed(f) },
    { weight: 3, arbitrary: directoryChangers() },
    { weight: 1, arbitrary: commandTakers() },
    { weight: 1, arbitrary: environment() },
    { weight: 1, arbitrary: callbacks() },
    { weight: 1, arbitrary: coprocs() },
  ];
  const piece = fc.oneof(...pieces);
  return fc.oneof(
    { weight: 3, arbitrary: piece },
    { weight: 1, arbitrary: fc.tuple(list, piece).map(([l, p]) => `${l}; ${p}`) },
  );
}
