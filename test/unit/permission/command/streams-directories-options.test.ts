import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { type Cwd } from '../../../../src/main/core/shell-analysis/types';
import { argvs } from './helpers';

/**
 * The analyser's side of issue 44, item 5: where a program's program comes from (descriptors bound by
 * redirections), where a program runs (working-directory options), and the commands options carry.
 */
beforeAll(async () => {
  await initShellParser();
});

const readable = (c: string): boolean => analyzeCommand(c).readable;
const cwds = (c: string): (Cwd | undefined)[] => analyzeCommand(c).commands.map((x) => x.cwd);

describe('descriptors: what a program opening /dev/fd/N or /dev/stdin reads', () => {
  it('a literal here-document or here-string on that descriptor is the program written out', () => {
    for (const c of [
      "python3 /dev/fd/3 3<<'EOF'\nprint(1)\nEOF",
      "python3 /dev//fd/3 3<<'EOF'\nprint(1)\nEOF",
      "python3 /dev/fd/../fd/4 4<<'EOF'\nprint(1)\nEOF",
      "python3 /dev/stdin <<< 'print(1)'",
      "python3 - <<'EOF'\nprint(1)\nEOF",
      "python3 <<'EOF'\nprint(1)\nEOF",
      "python3 /dev/fd/4 3<<'EOF' 4<&3\nprint(1)\nEOF", // 4 is a copy of 3
      'python3 /dev/fd/3 3<<EOF\nprint(1)\nEOF', // no expansion in it: literal
    ])
      expect(readable(c), c).toBe(true);
  });

  it('anything else on it, or nothing bound, is code nobody can read', () => {
    for (const c of [
      'python3 /dev/fd/3',
      "python3 /dev/fd/4 3<<'EOF'\nprint(1)\nEOF",
      "python3 /dev/fd/3 3<<'EOF' 3<&-\nprint(1)\nEOF",
      'python3 /dev/fd/3 3< tool.py',
      'python3 /dev/fd/3 3< <(cat tool.py)',
      "python3 /dev/stdin 3<<'EOF'\nprint(1)\nEOF",
      'python3 /dev/fd/3 3<<EOF\n$(cat x)\nEOF',
      "python3 /proc/self/fd/0 <<< 'print(1)'",
      "python3 /proc/thread-self/fd/3 3<<'EOF'\nprint(1)\nEOF",
      'python3 /dev/tty',
      "echo 'print(1)' | python3 /dev/stdin",
      "{ python3 /dev/fd/3; python3 /dev/fd/3; } 3<<'EOF'\nprint(1)\nEOF", // the second reads what the first left
      'cat x | python3 -',
      'python3 - < x.py',
      'cd "$D" && python3 stdin',
    ])
      expect(readable(c), c).toBe(false);
  });

  it('a here-document on another descriptor is not the standard input', () => {
    // cat reads the tool's input here, not the text: sh gets nothing the analyser knows
    expect(readable("cat 3<<'EOF' | sh\nls\nEOF")).toBe(false);
    expect(argvs("cat 3<<'EOF' | sh\nls\nEOF")).toEqual([['cat'], ['sh']]);
  });

  it('the table of programs that run a program file', () => {
    for (const [c, ok] of [
      ['awk -f prog.awk f', true],
      ['awk -f - f', false],
      ['awk --file=/dev/stdin f < p', false],
      ["awk '{print}' -", true], // `-` as data
      ['gawk -i /dev/fd/0 -f p.awk f', false],
      ['sed -f script.sed f', true],
      ['sed -nf - f', false],
      ['sed -e p -', true],
      ['make', true],
      ['make -f Makefile.ci', true],
      ['make -sf /dev/stdin', false],
      ['make --makefile=- all', false],
      ['m4 macros.m4', true],
      ['m4 - < x', false],
      ['dc -e 1p', true],
      ['dc < x', false],
      ["ed f <<'EOF'\n1d\nw\nEOF", true],
      ['ed f < cmds', false],
      ["sqlite3 db 'select 1'", true],
      ['sqlite3 db < x.sql', false],
      ['sqlite3 -init /dev/stdin db < x', false],
      ['php -f /dev/stdin < x', false],
      ['R --file=/dev/stdin < x', false],
    ] as const)
      expect(readable(c), c).toBe(ok);
  });

  it("a shell's literal script is analysed, with the rest of the script as its commands' input", () => {
    expect(argvs("bash /dev/fd/3 3<<'EOF'\nls src\nEOF")).toEqual([
      ['bash', '/dev/fd/3'],
      ['ls', 'src'],
    ]);
    expect(argvs("sh <<< 'rm -rf x'")).toEqual([['sh'], ['rm', '-rf', 'x']]);
    expect(readable("bash <<'EOF'\nls\nEOF")).toBe(true);
    expect(readable("bash <<'EOF'\npython3\nprint(1)\nEOF")).toBe(false);
    expect(analyzeCommand("bash <<'EOF'\nls\nEOF").commands[0]?.runsAnalysedCode).toBe(true);
    // piped text is another program's output: still analysed for the deny list, never readable
    expect(readable('echo ls | bash')).toBe(false);
    expect(argvs("echo 'rm -rf x' | sh")).toContainEqual(['rm', '-rf', 'x']);
  });
});

describe('working-directory options: the directory the program runs in', () => {
  it('env -C in every spelling, for the wrapped program only', () => {
    expect(cwds('env -C src ls; ls')).toEqual(['src', undefined]);
    expect(cwds('env --chdir=src ls')).toEqual(['src']);
    expect(cwds('env --chdir src ls')).toEqual(['src']);
    expect(cwds('env -Csrc ls')).toEqual(['src']);
    expect(cwds('env -iC src ls')).toEqual(['src']);
    expect(cwds('env -u X -C /etc cat passwd')).toEqual(['/etc']);
    expect(cwds('env -C a env -C b ls')).toEqual(['a/b']);
    expect(cwds('env -C a env -C /b ls')).toEqual(['/b']);
    expect(cwds('cd src && env -C lib ls')).toEqual([undefined, 'src/lib']);
    expect(cwds('env -C "$D" ls')).toEqual([null]);
    expect(cwds('nice -n 5 env -C x timeout 3 ls')).toEqual(['x']);
    expect(analyzeCommand('env -C x ls').changesDirectory).toBe(true);
  });

  it('chdir(2) follows a symbolic link before `..`: the path is kept as written for the engine to resolve', () => {
    expect(cwds('env -C link/.. ls')).toEqual(['link/..']);
    expect(cwds('cd src && env -C link/.. ls')).toEqual([undefined, 'src/link/..']);
  });

  it('the wrapped program runs nested code there too', () => {
    const a = analyzeCommand("env -C .gatehouse sh -c 'echo x > s.yaml; tee t.yaml'");
    expect(a.writes.map((w) => [w.path, w.cwd])).toEqual([
      ['s.yaml', '.gatehouse'],
      ['t.yaml', '.gatehouse'],
    ]);
  });

  it('programs with a directory option', () => {
    expect(cwds('git -C sub status')).toEqual(['sub']);
    expect(cwds('git -C a -C b status')).toEqual(['a/b']);
    expect(cwds('git -c x=y -C sub log')).toEqual(['sub']);
    expect(cwds('git log -C')).toEqual([undefined]); // the subcommand's -C finds copies
    expect(cwds('make -C build all')).toEqual(['build']);
    expect(cwds('make -Cbuild -C sub')).toEqual(['build/sub']);
    expect(cwds('make --directory=build')).toEqual(['build']);
    expect(cwds('npm --prefix web install')).toEqual(['web']);
    expect(cwds('npm install --prefix web')).toEqual(['web']);
    expect(cwds('pnpm -C web build')).toEqual(['web']);
    expect(cwds('yarn --cwd web test')).toEqual(['web']);
    expect(cwds('terraform -chdir=infra plan')).toEqual(['infra']);
    expect(cwds('ninja -C out')).toEqual(['out']);
    expect(cwds('tar -C build -xf x.tar')).toEqual([undefined]); // tar's own files are judged with it
  });

  it('find -execdir runs its command somewhere under its starting point', () => {
    expect(cwds("find .gatehouse -execdir sh -c 'ls' \\;")).toEqual([
      undefined,
      { under: '.gatehouse' },
      { under: '.gatehouse' },
    ]);
    expect(cwds('find a b -execdir ls \\;')).toEqual([undefined, null]);
    expect(cwds('find -execdir ls \\;')).toEqual([undefined, { under: '.' }]);
    expect(cwds('find . -exec ls \\;')).toEqual([undefined, undefined]);
  });

  it('a cd inside a subshell or a substitution is followed there, and forgotten after it', () => {
    expect(cwds('(cd src && ls); ls')).toEqual([undefined, 'src', undefined]);
    expect(cwds('echo "$(cd src; ls)"; ls')).toEqual([undefined, undefined, 'src', undefined]);
    expect(cwds('(if true; then cd src; fi; ls)')).toEqual([undefined, undefined, null]);
  });

  it('wrappers that move or hide the directory', () => {
    expect(cwds('unshare -w /tmp ls')).toEqual(['/tmp']);
    expect(cwds('unshare -R /srv ls')).toEqual([null]);
    expect(cwds('systemd-run --working-directory=/ ls')).toEqual(['/']);
    expect(cwds('chroot /srv ls')).toEqual([null]);
  });
});

describe('options that take a command', () => {
  const commands = (c: string): string[][] => argvs(c).slice(1);
  it('finds the command in each program of the table', () => {
    expect(commands("tar -xf x.tar --to-command='gzip -d'")).toEqual([['gzip', '-d']]);
    expect(commands("tar cIf 'zstd -19' out.tar src")).toEqual([['zstd', '-19']]);
    expect(commands('tar --checkpoint-action=exec=id -cf a.tar src')).toEqual([['id']]);
    expect(commands('tar --checkpoint-action=dot -cf a.tar src')).toEqual([]);
    expect(commands("rsync -avz -e 'ssh -p 22' a b")).toEqual([['ssh', '-p', '22']]);
    expect(commands("ssh -o 'ProxyCommand nc %h %p' h")).toEqual([['nc', '%h', '%p']]);
    expect(commands('ssh -o User=x -o Port=2 h uptime')).toEqual([]);
    expect(commands('git -c core.pager=less log')).toEqual([['less']]);
    expect(commands('git -c color.ui=auto log')).toEqual([]);
    expect(commands('git -c core.fsmonitor=true status')).toEqual([]);
    expect(commands("git -c alias.l='log --oneline' l")).toEqual([['git', 'log', '--oneline']]);
    expect(commands("git config credential.helper '!pass show git'")).toEqual([['pass', 'show', 'git']]);
    expect(commands('git config credential.helper store')).toEqual([]);
    expect(commands('git rebase -i --exec "npm test" main')).toEqual([['npm', 'test']]);
    expect(commands('git bisect run make check')).toEqual([['make', 'check']]);
    expect(commands('npx -c "eslint ."')).toEqual([['eslint', '.']]);
    expect(commands('npx eslint .')).toEqual([]);
    expect(commands("script -qc 'make test' /dev/null")).toEqual([['make', 'test']]);
  });

  it('wrappers outside the read-only set: the program they run, marked', () => {
    for (const [c, argv] of [
      ['taskset -c 0-3 make -j4', ['make', '-j4']],
      ['taskset 0x3 ls', ['ls']],
      ['chrt -f 10 ls', ['ls']],
      ['chrt --rr 10 ls', ['ls']],
      ['flock -w 5 /tmp/l make', ['make']],
      ['unshare -rn ls', ['ls']],
      ['setpriv --reuid=1000 --no-new-privs ls', ['ls']],
      ['systemd-run --user -p MemoryMax=1G ls', ['ls']],
      ['prlimit --nofile=1024 ls', ['ls']],
      ['fakeroot -- ls', ['ls']],
      ['numactl -N 0 --membind=0 ls', ['ls']],
      ['direnv exec . ls', ['ls']],
      ['cgexec -g cpu:grp ls', ['ls']],
    ] as const) {
      const a = analyzeCommand(c);
      expect(a.commands[0]?.argv, c).toEqual(argv);
      expect(a.commands[0]?.runner, c).toBe(c.split(' ')[0]);
    }
    expect(analyzeCommand('nice ls').commands[0]?.runner).toBeUndefined();
    expect(argvs('taskset -p 123')).toEqual([['taskset', '-p', '123']]);
    expect(argvs('unshare -r')).toEqual([['sh']]); // with no command it starts a shell
    expect(readable('taskset --frobnicate 1 ls')).toBe(false);
    // the rest is one shell line: `sg GROUP CMD...`, `entr -s CMD`
    expect(argvs("sg staff 'ls -l' src")).toEqual([
      ['sg', 'staff', 'ls -l', 'src'],
      ['ls', '-l', 'src'],
    ]);
    expect(argvs("entr -s 'make test'")).toEqual([
      ['entr', '-s', 'make test'],
      ['make', 'test'],
    ]);
    expect(argvs('direnv allow')).toEqual([['direnv', 'allow']]);
  });

  it('parallel: one job per literal argument, the argument quoted', () => {
    expect(commands('parallel gzip ::: a b')).toEqual([
      ['gzip', 'a'],
      ['gzip', 'b'],
    ]);
    expect(commands("parallel 'echo {.}' ::: a.txt")).toEqual([['echo', 'a']]);
    expect(commands('parallel echo {1}-{2} ::: a ::: b c')).toEqual([
      ['echo', 'a-b'],
      ['echo', 'a-c'],
    ]);
    expect(commands("parallel 'echo {}' ::: 'x;y'")).toEqual([['echo', 'x;y']]);
    expect(commands("parallel ::: 'ls src' pwd")).toEqual([['ls', 'src'], ['pwd']]);
    expect(readable('parallel gzip :::: list.txt')).toBe(false);
    expect(readable('parallel --frobnicate gzip ::: a')).toBe(false);
  });
});
