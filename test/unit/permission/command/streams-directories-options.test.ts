import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, initShellParser } from '../../../../src/main/permission/command';
import { argvs } from './helpers';

/**
 * The analyser's side of issue 44, item 5: where a program's program comes from (descriptors bound by
 * redirections), where a program runs (working-directory options), and the commands options carry.
 */
beforeAll(async () => {
  await initShellParser();
});

const readable = (c: string): boolean => analyzeCommand(c).readable;

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
