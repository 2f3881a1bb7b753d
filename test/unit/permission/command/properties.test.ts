import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { readOnlyPathArgs } from '../../../../src/main/core/shell-analysis/read-only/read-only';
import { denyReason, makeContext, removeContext } from './helpers';

const ctx = makeContext();

beforeAll(async () => {
  await initShellParser();
});

afterAll(() => removeContext(ctx));

/** Denied commands as argv (no `~` or `$`, whose meaning quoting changes). */
const DENIED: string[][] = [
  ['rm', '-rf', '/'],
  ['rm', '-fr', '/etc'],
  ['sudo', 'ls'],
  ['su', '-'],
  ['chmod', '-R', '777', '/'],
  ['shutdown', '-h', 'now'],
  ['reboot'],
  ['mkfs.ext4', '/dev/sda1'],
  ['dd', 'if=/dev/zero', 'of=/dev/sda'],
  ['find', '/', '-delete'],
  ['/bin/rm', '-r', '/usr'],
];

const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'in',
  'select',
  'function',
  'time',
  'coproc',
]);

type Style = 'plain' | 'single' | 'double' | 'escaped' | 'ansi';

/** Writes `text` so that bash reads it back as exactly `text`, in the given style. */
function quote(text: string, style: Style): string {
  switch (style) {
    case 'plain':
      return text.replace(/[^A-Za-z0-9_./=-]/g, (c) => '\\' + c);
    case 'single':
      return `'${text.replace(/'/g, `'\\''`)}'`;
    case 'double':
      return `"${text.replace(/["\\$`]/g, (c) => '\\' + c)}"`;
    case 'escaped':
      return [...text].map((c) => '\\' + c).join('');
    case 'ansi':
      return `$'${[...text].map((c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0')).join('')}'`;
  }
}

const style = fc.constantFrom<Style>('plain', 'single', 'double', 'escaped', 'ansi');

/** A word split at random points, each piece quoted in a random style: `r''m`, `"r"m`, `\r\m`, `$'\x72'm`... */
function quotedWord(word: string): fc.Arbitrary<string> {
  return fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), style), { minLength: 1, maxLength: 6 }).map((pieces) => {
    let out = '';
    let i = 0;
    for (const [len, s] of pieces) {
      if (i >= word.length) break;
      out += quote(word.slice(i, i + len), s);
      i += len;
    }
    if (i < word.length) out += quote(word.slice(i), 'plain');
    // tree-sitter-bash reads an unquoted reserved word at the start of a word as the keyword, also when plain pieces
    // spell it (`f` `i` `'n'` `d` is `fi'n'd`): the command then has a syntax error and is unreadable (it asks in
    // every mode) instead of denied; not generated here: such a start is quoted (`'f'i'n'd`)
    const lead = /^[A-Za-z0-9_./=-]*/.exec(out)![0];
    if (lead.length < out.length && RESERVED.has(lead)) out = `'${lead[0]}'${out.slice(1)}`;
    return out;
  });
}

function quotedCommand(argv: string[]): fc.Arbitrary<string> {
  return fc.tuple(...argv.map(quotedWord)).map((words) => words.join(' '));
}

function singleQuoted(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const PREFIX_WRAPPERS = [
  'env',
  'env -i',
  'env X=1',
  'env -u PATH',
  'nice',
  'nice -n 5',
  'nohup',
  'timeout 5',
  'timeout -s KILL 10s',
  'command',
  'exec',
  'time',
  'time -p',
  'stdbuf -oL',
  'xargs',
  'xargs -0 -n 1',
];

interface Wrapper {
  /** Only a simple command can follow a prefix wrapper (`env for ...` would run a program named `for`). */
  prefix: boolean;
  /** The result is a simple command again (`bash -c '...'`), so prefixes may follow. */
  simple: boolean;
  apply: (c: string) => string;
}

const outer = (simple: boolean, apply: (c: string) => string): Wrapper => ({ prefix: false, simple, apply });

const wrap: fc.Arbitrary<Wrapper> = fc.oneof(
  fc.constantFrom(...PREFIX_WRAPPERS).map((w): Wrapper => ({ prefix: true, simple: true, apply: (c) => `${w} ${c}` })),
  fc.constantFrom(
    outer(true, (c) => `bash -c ${singleQuoted(c)}`),
    outer(true, (c) => `sh -lc ${singleQuoted(c)}`),
    outer(true, (c) => `eval ${singleQuoted(c)}`),
    outer(true, (c) => `echo $( ${c}\n)`),
    outer(true, (c) => `X=$( ${c}\n) ls`),
    outer(true, (c) => `ls > "$( ${c}\n)"`),
    outer(false, (c) => `bash <<'EOF${c.length}'\n${c}\nEOF${c.length}`),
    outer(false, (c) => `echo ${singleQuoted(c)} | sh`),
    outer(false, (c) => `( ${c}\n)`),
    outer(false, (c) => `{ ${c}\n}`),
    outer(false, (c) => `true && ${c}`),
    outer(false, (c) => `false || ( ${c}\n) &`),
    outer(false, (c) => `if true; then ${c}\nfi`),
    outer(false, (c) => `for i in 1; do ${c}\ndone`),
    outer(false, (c) => `ls | ${c}`),
    outer(false, (c) => `f() { ${c}\n}`),
  ),
);

function applyAll(command: string, wrappers: Wrapper[]): string {
  let c = command;
  let simple = true;
  for (const w of wrappers) {
    if (w.prefix && !simple) continue;
    c = w.apply(c);
    simple = w.simple;
  }
  return c;
}

describe('property: a denied command stays denied', () => {
  it('under random quoting and escaping, which also leaves its argv unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...DENIED).chain((argv) => quotedCommand(argv).map((c) => [argv, c] as const)),
        async ([argv, command]) => {
          const a = analyzeCommand(command);
          expect(a.readable, command).toBe(true);
          expect(a.commands[0]?.argv, command).toEqual(argv);
          expect(await denyReason(command, ctx), command).not.toBeNull();
        },
      ),
      { numRuns: 400 },
    );
  });

  it('under random wrapping (wrappers, nested shells, substitutions, compound commands)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...DENIED).chain((argv) => quotedCommand(argv)),
        fc.array(wrap, { minLength: 1, maxLength: 4 }),
        async (command, wrappers) => {
          const wrapped = applyAll(command, wrappers);
          expect(await denyReason(wrapped, ctx), wrapped).not.toBeNull();
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('property: benign arguments never trigger the deny list', () => {
  const filename = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,24}$/);

  it('for ls, cat, rm -rf ./X, rm -rf X/sub and data mentioning denied words', async () => {
    await fc.assert(
      fc.asyncProperty(filename, fc.constantFrom<Style>('plain', 'single', 'double'), async (name, s) => {
        const q = quote(name, s);
        for (const c of [
          `ls -la ${q}`,
          `cat ${q}`,
          `rm -rf ./${q}`,
          `rm -rf ${q}/sub`,
          `echo "sudo rm -rf / ${name}"`,
          `grep -r sudo ${q}`,
          `git commit -m "rm -rf / ${name}"`,
        ]) {
          const a = analyzeCommand(c);
          expect(a.readable, c).toBe(true);
          expect(await denyReason(c, ctx), c).toBeNull();
        }
        expect(readOnlyPathArgs(analyzeCommand(`cat ${q}`).commands[0]!)).toEqual([name]);
      }),
      { numRuns: 300 },
    );
  });
});
