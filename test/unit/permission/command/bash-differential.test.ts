import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';

/**
 * Differential test against the real bash: the words the analyser says a command receives must be the words
 * bash really passes (`printf '%s\0' WORDS...` prints them), for random quoting, escaping, ANSI-C strings,
 * line continuations and brace expansion; and the words GNU env passes for `env -S STRING`.
 */
/** Reproduce a run: GATEHOUSE_DIFF_SEED=<seed printed below> DIFF_RUNS=<n>. */
const SEED = Number(process.env.GATEHOUSE_DIFF_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.DIFF_RUNS ?? 150);

const empty = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bash-diff-')));

beforeAll(async () => {
  await initShellParser();
});

afterAll(() => fs.rmSync(empty, { recursive: true, force: true }));

function bashWords(script: string): string[] {
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    cwd: empty,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  if (r.status !== 0) throw new Error(`bash failed (${r.status}): ${r.stderr}`);
  const parts = r.stdout.split('\0');
  parts.pop();
  return parts;
}

/** Characters with meaning to the shell, minus `$`, backtick and `~` (expansions the text does not show). */
const CHARS = [...'abrm -/.=,;|&<>(){}[]*?#!%^@+:\t\n\'"\\'];
const value = fc.string({ unit: fc.constantFrom(...CHARS), minLength: 1, maxLength: 8 });

type Style = 'single' | 'double' | 'escaped' | 'ansi' | 'raw';

function render(text: string, style: Style): string {
  switch (style) {
    case 'single':
      return `'${text.replace(/'/g, `'\\''`)}'`;
    case 'double':
      return `"${text.replace(/["\\$`]/g, (c) => '\\' + c)}"`;
    case 'escaped':
      return [...text].map((c) => (c === '\n' ? "$'\\n'" : '\\' + c)).join('');
    case 'ansi':
      return `$'${[...text].map((c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0')).join('')}'`;
    case 'raw':
      // unquoted text the shell reads as is: letters, dots, commas and braces (brace expansion)
      return text.replace(/[^a-z.,{}]/g, '') || 'x';
  }
}

const piece = fc.tuple(value, fc.constantFrom<Style>('single', 'double', 'escaped', 'ansi', 'raw'));
const word = fc.array(piece, { minLength: 1, maxLength: 4 }).map((ps) => ps.map(([t, s]) => render(t, s)).join(''));
const continuation = fc.constantFrom('', '', '', '\\\n');

describe('the analyser agrees with bash on the words a command receives', () => {
  it('for random quoting, escaping and brace expansion (or fails closed, rarely)', () => {
    console.log(
      `bash-differential: seed ${SEED}, ${RUNS} runs (reproduce: GATEHOUSE_DIFF_SEED=${SEED} DIFF_RUNS=${RUNS})`,
    );
    let runs = 0;
    let unreadable = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(word, continuation), { minLength: 1, maxLength: 4 }), (words) => {
        // a line continuation between words (one at the very end of the input is a syntax error to the grammar)
        const command = `printf '%s\\0' ` + words.map(([w, c], i) => (i < words.length - 1 ? w + c : w)).join(' ');
        runs++;
        const a = analyzeCommand(command);
        if (!a.readable) {
          // the grammar cannot read some spellings (a word of escaped blanks alone): unreadable asks, which is safe
          unreadable++;
          return;
        }
        expect(a.commands[0]?.argv.slice(2), command).toEqual(bashWords(command));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(unreadable / runs).toBeLessThan(0.1);
  });
});

/** The words GNU env passes after splitting `env -S STRING` (printf prints each ending in NUL); null if env refuses. */
function envSplitWords(text: string): string[] | null {
  // a first word of our own: printf with no argument at all would still print its format once
  const r = spawnSync('env', ['-S', `printf '%s\\000' START ${text}`], { cwd: empty, encoding: 'utf8', env: {} });
  if (r.status !== 0) return null;
  const parts = r.stdout.split('\0');
  parts.pop();
  return parts;
}

/** Pieces of an `env -S` string: bare text, quotes of both kinds, env's own escapes, blanks, comments. */
const envPiece = fc.oneof(
  fc.stringMatching(/^[a-z./=,-]{1,5}$/),
  fc.constantFrom(' ', '  ', '\t', ' \t '),
  fc.string({ unit: fc.constantFrom(...'ab #"$\\_t'), maxLength: 5 }).map((t) => `'${t.replace(/'/g, '')}'`),
  fc
    .string({ unit: fc.constantFrom('a', ' ', '#', "'", '\\"', '\\\\', '\\t', '\\_', '\\n'), maxLength: 5 })
    .map((t) => `"${t}"`),
  fc.constantFrom('\\_', '\\t', '\\\\', '\\"', "\\'", '\\#', '\\$', ' #c', '\\c', '\\q'),
);

describe('the analyser splits `env -S STRING` as GNU env does', () => {
  const real = envSplitWords("a 'b c'");
  it.skipIf(real === null || real.join('|') !== 'START|a|b c')('for random quoting, escapes and comments', () => {
    const runs = Math.ceil(RUNS / 2);
    console.log(
      `bash-differential (env -S): seed ${SEED}, ${runs} runs (reproduce: GATEHOUSE_DIFF_SEED=${SEED} DIFF_RUNS=${RUNS})`,
    );
    fc.assert(
      fc.property(fc.array(envPiece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const text = pieces.join('');
        const expected = envSplitWords(text);
        const a = analyzeCommand(`env -S '${`printf '%s\\000' START ${text}`.replace(/'/g, `'\\''`)}'`);
        // env refuses what the analyser must not read either (or reads as nothing that runs differently)
        if (expected === null) return void expect(a.readable, text).toBe(false);
        if (!a.readable) return;
        expect(a.commands[0]?.argv.slice(2), text).toEqual(expected);
      }),
      { seed: SEED, numRuns: runs },
    );
  });
});
