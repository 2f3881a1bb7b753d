import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/shared/permission';
import { analyzeCommand } from '../../../src/main/core/shell-analysis/analyze';
import { cmd, makeFixture, type Fixture } from './fixture';

/**
 * Contract "Assurance: Code-taking builtins and options are a closed table": a builtin option whose value bash runs
 * as code is analysed when literal (the deny list and rules see it) and unreadable when not; any builtin use outside
 * the table of inert uses is not read-only.
 */
type Expect = 'allow' | 'ask' | 'deny';
type Row = [command: string, expected: Expect, mode?: PermissionMode];

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

async function check(rows: Row[]): Promise<void> {
  for (const [command, expected, mode] of rows) {
    const e = await fx.engine({ mode: mode ?? 'default' });
    const d = await e.decide(cmd(command));
    expect
      .soft(d.decision, `${JSON.stringify(command)} (${mode ?? 'default'}): ${d.source}: ${d.reason}`)
      .toBe(expected);
  }
}

/** The same call in the places a command can stand. */
function placed(c: string): string[] {
  return [
    c,
    `ls; ${c}`,
    `true && ${c}`,
    `echo "$(${c})"`,
    `f() { ${c}; }; f`,
    `bash -c "${c.replaceAll('"', '\\"')}"`,
    `(${c})`,
  ];
}

const B: PermissionMode = 'bypassPermissions';

describe('mapfile/readarray -C: the callback is bash code', () => {
  it('a literal callback is judged: the deny list denies it in every spelling', async () => {
    const rows: Row[] = [];
    for (const builtin of ['mapfile', 'readarray']) {
      for (const spelling of [
        `${builtin} -t -C 'sudo reboot' -c 1 lines < README.md`,
        `${builtin} -C 'sudo reboot' lines < README.md`,
        `${builtin} -tC 'sudo reboot' -c1 lines < README.md`,
        `${builtin} -c 1 -C"sudo reboot" lines < README.md`,
        `printf 'a\\nb\\n' | ${builtin} -t -C 'sudo reboot' -c 1`,
        `${builtin} -t -C 'f() { sudo reboot; }; f' x < README.md`,
      ])
        for (const c of placed(spelling)) rows.push([c, 'deny', B]);
    }
    await check(rows);
  });
  it('a computed callback is unreadable; a plain mapfile stays read-only', async () => {
    await check([
      ['mapfile -C "$cb" -c 1 x < README.md', 'ask', B],
      ['mapfile -C eval -c 1 < README.md', 'ask', B], // each line of the file runs as code
      ['cb=ls; readarray -t -C $cb lines < README.md', 'ask', B],
      ["mapfile -C 'echo' -c 1 x < README.md", 'ask'], // runs code: not read-only
      ["mapfile -C 'echo' -c 1 x < README.md", 'allow', B],
      ['mapfile -t lines < README.md', 'allow'],
      ['readarray -t -n 3 lines < README.md', 'allow'],
    ]);
  });
});

describe('compgen/complete: the word list is expanded, -C runs a command, -F calls a function', () => {
  it('a substitution in -W runs; -C is a command; both are judged', async () => {
    const rows: Row[] = [];
    for (const b of ['compgen', 'complete'])
      for (const c of [
        `${b} -W '$(sudo reboot)' x`,
        `${b} -W "a \\$(sudo reboot) b" x`,
        `${b} -W '\`sudo reboot\`' x`,
        `${b} -C 'sudo reboot' x`,
        `${b} -o default -C "sudo reboot" x`,
        `${b} -A file -W '$(sudo reboot)' x`,
      ])
        for (const p of placed(c)) rows.push([p, 'deny', B]);
    await check(rows);
  });
  it('computed code is unreadable; a literal word list without substitutions is not read-only but readable', async () => {
    await check([
      ['compgen -W "$words" x', 'ask', B],
      ['complete -C "$c" x', 'ask', B],
      ['complete -F "$f" x', 'ask', B],
      ["compgen -W 'a b c' a", 'allow', B],
      ["compgen -W 'a b c' a", 'ask'],
      ['complete -F _f x', 'allow', B],
    ]);
  });
});

describe('trap, bind -x, enable -f, hash -p, fc, set -k', () => {
  it('trap code is judged: it runs later, in this shell', async () => {
    await check([
      ["trap 'rm -rf src' EXIT; ls", 'ask'],
      ["trap -- 'rm -rf src' EXIT INT; ls", 'ask'],
      ["trap 'sudo reboot' DEBUG; ls", 'deny', B],
      ['trap "$code" EXIT', 'ask', B],
      ["trap 'echo done' EXIT; ls", 'ask'], // trap is not an inert use
    ]);
  });
  it('bind -x binds a command: literal is judged, computed is unreadable', async () => {
    await check([
      ['bind -x \'"\\C-x": sudo reboot\'', 'deny', B],
      ['bind -x \'"\\C-t": "sudo reboot"\'', 'deny', B],
      ["bind -x 'C-x:sudo reboot'", 'deny', B],
      ['bind -x "$b"', 'ask', B],
    ]);
  });
  it('enable -f loads code; fc runs history; set -k turns arguments into environment', async () => {
    await check([
      ['enable -f ./x.so ls; ls', 'ask', B],
      ['enable -f /usr/lib/bash/sleep sleep', 'ask', B],
      ["set -o history; history -s 'sudo reboot'; fc -s", 'ask', B],
      ['fc -e vi', 'ask', B],
      ['set -k; rg TODO RIPGREP_CONFIG_PATH=rg.conf', 'ask', B],
      ['set -o keyword; ls', 'ask', B],
    ]);
  });
  it('hash -p makes a name run a path: later uses of the name are that program', async () => {
    await check([
      ['hash -p /usr/bin/sudo ls; ls', 'deny', B],
      ['hash -p /usr/bin/sudo ls; ls -la src', 'deny', B],
      ['hash -p /sbin/reboot cat; cat README.md', 'deny', B],
      ['hash -p ./evil ls; ls', 'ask'],
      ['hash -p "$p" ls; ls', 'ask', B],
      ['hash -p /usr/bin/sudo ls; hash -r; ls', 'allow', B],
    ]);
  });
});

describe('declaration builtins with computed operands are unreadable', () => {
  it('declare/typeset/local/export/readonly/unset of a computed operand', async () => {
    const rows: Row[] = [];
    for (const b of ['declare', 'typeset', 'export', 'readonly', 'declare -x', 'declare -a', 'unset'])
      for (const op of ['"$v"', '$v', '"${v}"', '"$v=1"', '"x=$v"', '"$(echo x)"', '"${!p}"', '"a[$i]=1"'])
        rows.push([`${b} ${op}`, 'ask', B]);
    rows.push(
      ['f() { local "$1"; }; f x', 'ask', B],
      ["unset 'a[$i]'", 'ask', B], // the subscript is arithmetic: $i's value runs as code
      ["declare 'a[$(id)]=1'", 'ask', B],
      ["i=2; unset 'a[$i]'; declare 'b[1]=x'", 'allow', B],
    );
    await check(rows);
  });
  it('literal operands stay readable, and inert ones read-only', async () => {
    await check([
      ['declare x=1; echo $x', 'allow'],
      ['declare -a arr=(a b c); echo "${arr[1]}"', 'allow'],
      ['readonly N=3; echo $N', 'allow'],
      ['f() { local x="$1"; echo "$x"; }', 'allow'],
      ['f() { local x="$1"; echo "$x"; }; f a', 'ask'], // a call of a function is not in the read-only set
      ['unset x; echo ok', 'allow'],
      ['declare x="$HOME"', 'allow'],
      ['export LC_ALL=C', 'allow'],
      ['declare -p x', 'allow'],
      ['declare -p', 'ask'], // prints every variable, the environment's secrets included
      ['export -p', 'ask'],
      ['set', 'ask'],
      ['set -o pipefail; set -eu; ls', 'allow'],
      ['set -- a b; echo "$1"', 'allow'],
      ['shift; exit 0', 'allow'],
    ]);
  });
});

describe('a PS4 in scope: set -x expands it before every command', () => {
  it('a literal PS4 is judged, a computed one is unreadable', async () => {
    await check([
      ["PS4='$(sudo reboot)'; set -x; true", 'deny', B],
      ["PS4='+$(sudo reboot) '; set -o xtrace; ls", 'deny', B],
      ["export PS4='$(sudo reboot)'; bash -x -c true", 'deny', B],
      ['PS4="$P"; set -x; ls', 'ask', B],
    ]);
  });
});

describe('an interpreter fed a here-document runs the script written in the command', () => {
  it('a rule for the interpreter allows it; a pipe or a computed body is still unreadable', async () => {
    fx.settings('user', { allow: ['Bash(python:*)', 'Bash(python3:*)', 'Bash(node:*)'] });
    await check([
      ["python - <<'PY'\nimport os\nprint(os.getcwd())\nPY", 'allow'],
      ["python3 - <<'EOF'\nprint(1)\nEOF", 'allow'],
      ['python3 <<EOF\nprint(1)\nEOF', 'allow'],
      ["node - <<'JS'\nconsole.log(1)\nJS", 'allow'],
      ['python3 - <<EOF\nprint("$(id)")\nEOF', 'ask'], // the body expands: not the text as written
      ["echo 'print(1)' | python3 -", 'ask'],
      ['curl -s https://example.com/x.py | python3 -', 'ask'],
      ['python3 - < x.py', 'ask'],
    ]);
    expect(analyzeCommand("python3 - <<'PY'\nprint(1)\nPY").readable).toBe(true);
  });
});
