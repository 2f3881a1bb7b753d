import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { highlightHunk, parseDiffHunks, splitRows } from '../../../src/renderer/src/chat/diff-model';

const OLD = 'one\ntwo\nthree\nfour\nfive\n';
const NEW = 'one\nTWO\nthree\nfour\nfive\nsix\n';

describe('parseDiffHunks', () => {
  it('numbers the lines of each side', () => {
    const [hunk] = parseDiffHunks(createTwoFilesPatch('a.txt', 'a.txt', OLD, NEW));
    expect(hunk?.header).toBe('@@ -1,5 +1,6 @@');
    expect(hunk?.lines.map((l) => [l.kind, l.text, l.oldNo, l.newNo])).toEqual([
      ['context', 'one', 1, 1],
      ['del', 'two', 2, null],
      ['add', 'TWO', null, 2],
      ['context', 'three', 3, 3],
      ['context', 'four', 4, 4],
      ['context', 'five', 5, 5],
      ['add', 'six', null, 6],
    ]);
  });

  it('skips "no newline" markers; a diff parsePatch refuses is parsed by hand, not dropped', () => {
    const patch = createTwoFilesPatch('a', 'a', 'x', 'y');
    expect(parseDiffHunks(patch)[0]?.lines.map((l) => l.kind)).toEqual(['del', 'add']);
    const odd = '@@ -3,2 +3,2 @@\n-old\nnot a diff line\n+new\n';
    const [hunk] = parseDiffHunks(odd);
    expect(hunk?.lines.map((l) => [l.text, l.oldNo, l.newNo])).toEqual([
      ['old', 3, null],
      ['ot a diff line', 4, 3],
      ['new', null, 4],
    ]);
  });
});

describe('splitRows', () => {
  it('pairs removals with the additions after them; the longer run leaves empty cells', () => {
    const lines = parseDiffHunks(createTwoFilesPatch('a', 'a', 'k\na\nb\nc\nk2\n', 'k\nA\nk2\nz\n'))[0]?.lines ?? [];
    const rows = splitRows(lines).map((r) => [r.left?.text ?? null, r.right?.text ?? null]);
    expect(rows).toEqual([
      ['k', 'k'],
      ['a', 'A'],
      ['b', null],
      ['c', null],
      ['k2', 'k2'],
      [null, 'z'],
    ]);
  });
});

describe('highlightHunk', () => {
  it('gives every line the tokens of its own side', () => {
    const lines = parseDiffHunks(createTwoFilesPatch('a.ts', 'a.ts', 'let a = 1;\n', 'const a = 1;\n'))[0]?.lines ?? [];
    const tokens = highlightHunk(lines, 'ts');
    expect(tokens.map((t) => t.map((x) => x.text).join(''))).toEqual(['let a = 1;', 'const a = 1;']);
    expect(tokens[1]?.[0]).toEqual({ text: 'const', className: 'hljs-keyword' });
  });
});
