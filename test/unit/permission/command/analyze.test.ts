import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, analysisSummary } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import type { Cwd } from '../../../../src/main/core/shell-analysis/types';
import { argvs, names } from './helpers';

beforeAll(async () => {
  await initShellParser();
});

describe('splitting a command line into simple commands', () => {
  it('splits lists, pipelines, background jobs and newlines', () => {
    expect(names('a && b || c; d & e\nf | g |& h')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  it('looks into subshells, groups and negation', () => {
    expect(names('(a; b) | { c; d; } && ! e')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('finds command and process substitutions anywhere: arguments, strings, assignments, redirects, subscripts', () => {
    expect(names('echo $(a) "x `b` y" <(c) >(d)')).toEqual(['echo', 'a', 'b', 'c', 'd']);
    expect(names('X=$(rm -rf /) ls')).toEqual(['ls', 'rm']);
    expect(argvs('X=$(rm -rf /) ls')[1]).toEqual(['rm', '-rf', '/']);
    expect(names('ls > $(sudo x)')).toEqual(['ls', 'sudo']);
    expect(names('arr[$(id)]=1')).toEqual(['id']);
    expect(names('echo ${x:-$(id)} $((1 + $(whoami)))')).toEqual(['echo', 'id', 'whoami']);
    expect(names('x=(a $(id) b)')).toEqual(['id']);
    expect(names('export A=$(id) B=2')).toEqual(['export', 'id']);
    expect(names('cat <<EOF\n$(whoami)\nEOF')).toEqual(['cat', 'whoami']);
  });

  it('walks if/while/for/case/select bodies and conditions, and arithmetic', () => {
    expect(names('if a; then b; elif c; then d; else e; fi')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(names('while a; do b; done; until c; do d; done')).toEqual(['a', 'b', 'c', 'd']);
    expect(names('for i in $(a); do b "$i"; done')).toEqual(['a', 'b']);
    expect(names('for ((i=$(a); i<3; i++)); do b; done')).toEqual(['a', 'b']);
    expect(names('case $(a) in x|y) b;; *) c;; esac')).toEqual(['a', 'b', 'c']);
    expect(names('select x in a; do b; done')).toEqual(['b']);
    expect(names('[[ -f x && $(a) ]] && (( $(b) + 1 ))')).toEqual(['a', 'b']);
  });

  it('counts function bodies as commands', () => {
    expect(names('f() { rm x; }; function g { sudo y; }; h() ( id )')).toEqual(['rm', 'sudo', 'id']);
  });

  it('ignores comments', () => {
    expect(names('echo ok # rm -rf /')).toEqual(['echo']);
  });
});

describe('normalising a simple command', () => {
  it('removes quotes and escapes', () => {
    for (const c of [
      "r''m -rf /",
      '\\rm -rf /',
      '"r"m -rf /',
      "$'rm' -rf /",
      "$'\\x72m' -rf /",
      "$'\\162\\155' -rf /",
      "'rm' -rf /",
      '$"rm" -rf /',
    ]) {
      expect(argvs(c)).toEqual([['rm', '-rf', '/']]);
    }
    expect(argvs('echo "a\\"b" \'c d\' e\\ f "\\$HOME"')).toEqual([['echo', 'a"b', 'c d', 'e f', '$HOME']]);
  });

  it('keeps every character of a double-quoted string, newlines and runs of spaces included', () => {
    expect(argvs('echo "multi\nline" "a  b" "a\n$x\nb" "" "x\\\ny"')).toEqual([
      ['echo', 'multi\nline', 'a  b', 'a\n$x\nb', '', 'xy'],
    ]);
    expect(analyzeCommand('x=(a  "b c" $(id)) ls').commands[0]?.assignments).toEqual(['x=(a b c $(id))']);
  });

  it('joins line continuations inside a word', () => {
    expect(argvs('r\\\nm -rf /')).toEqual([['rm', '-rf', '/']]);
    expect(argvs('rm \\\n -rf /')).toEqual([['rm', '-rf', '/']]);
  });

  it('reduces a program path to its name but keeps argv[0] as written', () => {
    const [c] = analyzeCommand('"/bin/rm" -rf ~').commands;
    expect(c?.name).toBe('rm');
    expect(c?.argv).toEqual(['/bin/rm', '-rf', '~']);
  });

  it('expands braces like bash', () => {
    expect(argvs('rm -rf /{etc,usr} a{1..3}')).toEqual([['rm', '-rf', '/etc', '/usr', 'a1', 'a2', 'a3']]);
    expect(argvs("echo '{a,b}' \\{c,d}")).toEqual([['echo', '{a,b}', '{c,d}']]);
    // A word that expands to nothing is dropped, as bash drops it; a quoted empty one stays.
    expect(argvs('printf x {,} y {,,}b')).toEqual([['printf', 'x', 'y', 'b', 'b', 'b']]);
    expect(argvs("printf ''{,}")).toEqual([['printf', '', '']]);
    expect(argvs("printf {,a'a'} {'',b}")).toEqual([['printf', 'aa', '', 'b']]);
  });

  it('sets leading assignments aside', () => {
    const [c] = analyzeCommand('FOO=1 BAR="a b" make test').commands;
    expect(c?.argv).toEqual(['make', 'test']);
    expect(c?.assignments).toEqual(['FOO=1', 'BAR=a b']);
  });

  it('looks through wrappers, keeping the words as written for rules', () => {
    const cases: [string, string[]][] = [
      ['env -i -u PATH X=1 sudo ls', ['sudo', 'ls']],
      ['env -- rm x', ['rm', 'x']],
      ['command rm x', ['rm', 'x']],
      ['builtin eval ls', ['eval', 'ls']],
      ['exec -a name rm x', ['rm', 'x']],
      ['nice -n 5 rm x', ['rm', 'x']],
      ['nice -10 rm x', ['rm', 'x']],
      ['nohup rm x', ['rm', 'x']],
      ['time -p rm x', ['rm', 'x']],
      ['timeout 5 sudo x', ['sudo', 'x']],
      ['timeout -s KILL -k 2 5s rm x', ['rm', 'x']],
      ['stdbuf -oL -e0 rm x', ['rm', 'x']],
      ['xargs -0 -n 1 -I{} rm -rf {}', ['rm', '-rf', '{}']],
      ['xargs rm -rf /', ['rm', '-rf', '/']],
      ['env nice -n 1 timeout 3 command nohup rm x', ['rm', 'x']],
    ];
    for (const [command, argv] of cases) {
      const [c] = analyzeCommand(command).commands;
      expect(c?.argv, command).toEqual(argv);
      expect(c?.words[0], command).toBe(command.split(' ')[0]);
    }
  });

  it('keeps a wrapper that wraps nothing, and `command -v` as a lookup', () => {
    expect(argvs('env')).toEqual([['env']]);
    expect(argvs('command -v rm')).toEqual([['command', '-v', 'rm']]);
  });

  it('makes a wrapper with an option it does not know unreadable', () => {
    expect(analyzeCommand('env -S "$X"').readable).toBe(false);
    expect(analyzeCommand('env -S "rm \\q /"').readable).toBe(false);
    expect(analyzeCommand('env -Z rm').readable).toBe(false);
    expect(analyzeCommand('nice --frobnicate rm').readable).toBe(false);
  });

  it('splits `env -S STRING` into the words of the command it runs, as env does', () => {
    expect(argvs('env -S "rm -rf /"')).toEqual([['rm', '-rf', '/']]);
    expect(argvs(`env -vS'sudo  "a b"' reboot`)).toEqual([['sudo', 'a b', 'reboot']]);
    expect(argvs('env --split-string="rm -r \\_x # comment" y')).toEqual([['rm', '-r', 'x', 'y']]);
    // env reads the split words as its own arguments: assignments and options too
    const a = analyzeCommand("env -S 'PATH=./bin -C src ls'");
    expect(a.commands[0]?.argv).toEqual(['ls']);
    expect(a.commands[0]?.assignments).toEqual(['PATH=./bin']);
    expect(a.commands[0]?.environmentAltered).toBe(true);
    expect(a.commands[0]?.cwd).toBe('src');
  });

  it('is unreadable where a word starts with a reserved word and a quote (bash runs `find`, the parser sees `fi`)', () => {
    for (const c of ["if true; then fi'n'd / -delete\nfi", 'bash -c \'if true; then fi"n"d / -delete\nfi\'']) {
      expect(analyzeCommand(c).readable, c).toBe(false);
    }
  });

  it('marks words the shell expands as dynamic but keeps their text', () => {
    const [c] = analyzeCommand('cat $HOME/x "${Y}" *.ts ~root/z plain ~/ok').commands;
    expect(c?.argv).toEqual(['cat', '$HOME/x', '${Y}', '*.ts', '~root/z', 'plain', '~/ok']);
    expect(c?.argvDynamic).toEqual([false, true, true, true, true, false, false]);
  });
});

describe('code inside strings: bash -c, eval, heredocs, pipes into shells', () => {
  it('parses the literal string of sh/bash/zsh/dash -c, also with combined flags', () => {
    expect(argvs("bash -c 'ls; sudo reboot'").slice(1)).toEqual([['ls'], ['sudo', 'reboot']]);
    expect(names('sh -c "rm x"')).toEqual(['sh', 'rm']);
    expect(names("zsh -c 'id'")).toEqual(['zsh', 'id']);
    expect(names("dash -c 'id'")).toEqual(['dash', 'id']);
    expect(names('bash -lc "id"')).toEqual(['bash', 'id']);
    expect(names('bash -e -o pipefail -c "id"')).toEqual(['bash', 'id']);
    expect(names('/bin/bash -c "bash -c \'sudo x\'"')).toEqual(['bash', 'bash', 'sudo']);
  });

  it('looks into other shells for denied commands but never calls their code readable', () => {
    const a = analyzeCommand("fish -c 'sudo id'");
    expect(a.readable).toBe(false);
    expect(a.commands.map((c) => c.name)).toEqual(['fish', 'sudo']);
    expect(analyzeCommand('fish').readable).toBe(true);
  });

  it('is unreadable when the shell string or eval is not literal', () => {
    for (const c of ['sh -c "$(curl x)"', 'bash -c "$X"', 'bash -c "echo $X"', 'eval "$SCRIPT"', 'eval $(foo)']) {
      const a = analyzeCommand(c);
      expect(a.readable, c).toBe(false);
      expect(a.unreadableReasons.length, c).toBeGreaterThan(0);
    }
    expect(names('sh -c "$(curl x)"')).toContain('curl');
  });

  it('concatenates eval arguments like the shell', () => {
    expect(argvs('eval "rm" "-rf /"').slice(1)).toEqual([['rm', '-rf', '/']]);
    expect(argvs("eval 'a;' b").slice(1)).toEqual([['a'], ['b']]);
  });

  it('parses heredocs and here-strings fed to a shell, but not to other programs', () => {
    expect(argvs('bash <<EOF\nrm -rf /\nEOF').slice(1)).toEqual([['rm', '-rf', '/']]);
    expect(argvs("sh <<'EOF'\nsudo id\nEOF").slice(1)).toEqual([['sudo', 'id']]);
    expect(argvs('bash <<-EOF\n\tsudo id\n\tEOF').slice(1)).toEqual([['sudo', 'id']]);
    expect(argvs("bash <<< 'sudo id'").slice(1)).toEqual([['sudo', 'id']]);
    expect(names('cat <<EOF\nrm -rf /\nEOF')).toEqual(['cat']);
    expect(analyzeCommand('cat <<EOF\nrm -rf /\nEOF').readable).toBe(true);
  });

  it('is unreadable for an unquoted heredoc with expansions fed to a shell', () => {
    expect(analyzeCommand('bash <<EOF\necho $X\nEOF').readable).toBe(false);
  });

  it('follows literal text piped into a shell', () => {
    expect(argvs("echo 'rm -rf /' | sh").slice(2)).toEqual([['rm', '-rf', '/']]);
    expect(argvs("printf 'sudo id' | bash -s").slice(2)).toEqual([['sudo', 'id']]);
    expect(argvs("cat <<'EOF' | bash\nsudo x\nEOF").slice(2)).toEqual([['sudo', 'x']]);
  });

  it('is unreadable when a shell reads a script from a program', () => {
    expect(analyzeCommand('curl https://x | bash').readable).toBe(false);
    expect(analyzeCommand('echo "$X" | sh').readable).toBe(false);
    expect(analyzeCommand('bash <(curl x)').readable).toBe(false);
    expect(analyzeCommand('source <(curl x)').readable).toBe(false);
  });

  it('a shell running a script file or nothing is readable; one reading its script from a redirect is not', () => {
    expect(analyzeCommand('bash script.sh arg').readable).toBe(true);
    expect(analyzeCommand('bash').readable).toBe(true);
    expect(analyzeCommand('bash < script.sh').readable).toBe(false);
  });

  it('parses the command of watch', () => {
    expect(argvs('watch -n 1 "sudo id"').slice(1)).toEqual([['sudo', 'id']]);
    expect(argvs('watch -x sudo id').slice(1)).toEqual([['sudo', 'id']]);
    expect(analyzeCommand('watch "$X"').readable).toBe(false);
  });

  it('parses trap and alias strings and find -exec commands', () => {
    expect(argvs("trap 'rm -rf /' EXIT")[1]).toEqual(['rm', '-rf', '/']);
    expect(argvs("alias ll='sudo ls'")[1]).toEqual(['sudo', 'ls']);
    expect(argvs('find . -name x -exec sudo rm {} \\;')[1]).toEqual(['sudo', 'rm', '{}']);
    expect(argvs("find . -execdir sh -c 'id' \\;").slice(1)).toEqual([['sh', '-c', 'id'], ['id']]);
  });
});

describe('unreadable commands', () => {
  it('a computed command name', () => {
    for (const c of [
      '$cmd --version',
      '${x} a',
      '$(echo rm) -rf /',
      '`echo rm` x',
      '"$CMD"',
      'r$X',
      'env $CMD',
      '/bin/r? x',
      'xargs $X',
    ]) {
      expect(analyzeCommand(c).readable, c).toBe(false);
    }
  });

  it('syntax errors and unterminated constructs', () => {
    for (const c of ['echo $(', 'if true; then', 'ls |', '(ls', 'echo "x', '{rm,-rf,/}']) {
      expect(analyzeCommand(c).readable, c).toBe(false);
    }
  });

  it('still reports the commands it could see around a syntax error', () => {
    expect(names('sudo reboot; echo $(')).toContain('sudo');
  });

  it('an argument with an expansion stays readable', () => {
    expect(analyzeCommand('ls $HOME "$X" ${Y:-z}').readable).toBe(true);
  });

  it('deeply nested code', () => {
    expect(analyzeCommand('('.repeat(600) + 'ls' + ')'.repeat(600)).readable).toBe(false);
    let c = 'id';
    for (let i = 0; i < 14; i++) c = `bash -c ${JSON.stringify(c)}`;
    expect(analyzeCommand(c).readable).toBe(false);
  });

  it('never throws on absurd nesting: heredocs fed to shells twelve levels deep around deep subshells', () => {
    let c = '('.repeat(190) + 'ls' + ')'.repeat(190);
    for (let i = 0; i < 14; i++) c = `bash <<'E${i}'\n${c}\nE${i}`;
    const a = analyzeCommand(c);
    expect(a.readable).toBe(false);
  });

  it('the empty command is readable and runs nothing', () => {
    expect(analyzeCommand('')).toMatchObject({ readable: true, commands: [], writes: [] });
  });
});

describe('writes and reads by redirection', () => {
  it('reports every file redirect with its operator', () => {
    const a = analyzeCommand('a > f1; b >> f2; c &> f3; d &>> f4; e >| f5; f 1> f6; g 2> f7; h 2>> f8');
    expect(a.writes.map((w) => [w.via, w.path])).toEqual([
      ['>', 'f1'],
      ['>>', 'f2'],
      ['&>', 'f3'],
      ['&>>', 'f4'],
      ['>|', 'f5'],
      ['1>', 'f6'],
      ['2>', 'f7'],
      ['2>>', 'f8'],
    ]);
  });

  it('descriptor duplication and closing are not files; `>& file` is', () => {
    expect(analyzeCommand('ls 2>&1 >&2 3>&- <&0 1>&3').writes).toEqual([]);
    expect(analyzeCommand('ls >& out').writes).toEqual([{ path: 'out', via: '>&', dynamic: false }]);
  });

  it('reports tee files, with -a as append', () => {
    expect(analyzeCommand('ls | tee -a a.log b.log').writes).toEqual([
      { path: 'a.log', via: 'tee -a', dynamic: false },
      { path: 'b.log', via: 'tee -a', dynamic: false },
    ]);
    expect(analyzeCommand('ls | sudo tee /etc/x').writes).toEqual([]);
    expect(analyzeCommand('ls | env tee /etc/x').writes).toEqual([{ path: '/etc/x', via: 'tee', dynamic: false }]);
  });

  it('reports /dev/null and friends like any target (the engine treats them as free)', () => {
    expect(analyzeCommand('ls > /dev/null 2> /dev/stderr').writes.map((w) => w.path)).toEqual([
      '/dev/null',
      '/dev/stderr',
    ]);
  });

  it('marks computed targets dynamic and removes quotes', () => {
    expect(analyzeCommand('ls > "$HOME/x" 2> \'a b\'').writes).toEqual([
      { path: '$HOME/x', via: '>', dynamic: true },
      { path: 'a b', via: '2>', dynamic: false },
    ]);
  });

  it('reports input redirects as reads', () => {
    const a = analyzeCommand('cat < .env; y 0< in; echo $(< secret); z <&in2');
    expect(a.reads?.filter((r) => r.via !== 'glob').map((r) => r.path)).toEqual(['.env', 'in', 'secret', 'in2']);
    // echo's unquoted `$(< secret)`: bash globs the file's text, so where that reads is unknown
    expect(a.reads?.filter((r) => r.via === 'glob')).toEqual([{ path: '$(< secret)', via: 'glob', dynamic: true }]);
    expect(a.writes).toEqual([]);
    // the grammar has no `<>`: fail closed
    expect(analyzeCommand('x <> rw').readable).toBe(false);
  });

  it('finds redirects on compound statements and functions', () => {
    expect(
      analyzeCommand('{ ls; } > a; (ls) >> b; while read l; do :; done < c; f() { :; } > d').writes.map((w) => w.path),
    ).toEqual(['a', 'b', 'd']);
  });

  it('records where each command runs after a cd', () => {
    const cwds = (c: string): (Cwd | undefined)[] => analyzeCommand(c).commands.map((x) => x.cwd);
    expect(cwds('cd src && ls && cd ../lib && ls')).toEqual([undefined, 'src', 'src', 'lib']);
    expect(cwds('cd /etc; cat passwd; cd; ls')).toEqual([undefined, '/etc', '/etc', '~']);
    expect(cwds('cd "$X"; ls; cd /tmp; ls')).toEqual([undefined, null, null, '/tmp']);
    expect(cwds('pushd a; popd; ls')).toEqual([undefined, 'a', null]);
  });

  it('records the directory of redirect targets after a cd', () => {
    const a = analyzeCommand('cd /etc && echo x > motd | tee -a issue; cat < shadow');
    expect(a.writes).toEqual([
      { path: 'motd', via: '>', dynamic: false, cwd: '/etc' },
      { path: 'issue', via: 'tee -a', dynamic: false, cwd: '/etc' },
    ]);
    expect(a.reads).toEqual([{ path: 'shadow', via: '<', dynamic: false, cwd: '/etc' }]);
  });

  it('notices directory changes', () => {
    expect(analyzeCommand('cd /etc && cat passwd').changesDirectory).toBe(true);
    expect(analyzeCommand('env -C /etc cat passwd').changesDirectory).toBe(true);
    expect(analyzeCommand('cat passwd').changesDirectory).toBe(false);
  });
});

describe('changes to the environment that decide which program runs', () => {
  it('marks a command run with a changed PATH, LD_PRELOAD, GIT_* ... and every command after an export or source', () => {
    const flags = (c: string): boolean[] => analyzeCommand(c).commands.map((x) => x.environmentAltered === true);
    expect(flags('PATH=. ls')).toEqual([true]);
    expect(flags('env LD_PRELOAD=./x.so cat f')).toEqual([true]);
    expect(flags('GIT_EXTERNAL_DIFF=./x git diff')).toEqual([true]);
    expect(flags('FOO=1 ls')).toEqual([false]);
    expect(flags('ls; export PATH=.:$PATH; ls')).toEqual([false, false, true]);
    expect(flags('PATH=.; ls')).toEqual([true]);
    expect(flags('source .envrc && ls')).toEqual([false, true]);
    expect(flags('hash -p ./evil ls; ls')).toEqual([false, true]);
    expect(flags('export FOO=1; ls')).toEqual([false, false]);
  });
});

describe('fork bombs', () => {
  it('finds the classic and renamed variants', () => {
    for (const c of [
      ':(){ :|:& };:',
      'bomb() { bomb | bomb & }; bomb',
      'f(){ f & f; }; f',
      "bash -c ':(){ :|:& };:'",
      'function x { x|x & }; x',
    ]) {
      expect(analyzeCommand(c).forkBomb, c).toBeTruthy();
    }
  });

  it('does not flag ordinary recursion or pipelines of other functions', () => {
    for (const c of ['f() { f; }', 'f() { g | g & }', 'f() { echo | cat & }; f', 'ls | ls &']) {
      expect(analyzeCommand(c).forkBomb, c).toBeNull();
    }
  });
});

describe('analysisSummary', () => {
  it('lists the commands, writes and why it is unreadable', () => {
    expect(analysisSummary(analyzeCommand('ls > out && $X'))).toBe(
      'ls (writes out) [unreadable: the command name is computed: $X]',
    );
  });
});
