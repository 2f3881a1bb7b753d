import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../../src/worker/tools/tool-set';
import { applyEdit } from '../../../src/worker/tools/edit-file';
import { MAX_WHOLE_FILE_BYTES } from '../../../src/worker/tools/text-file';
import type { ToolPreview } from '../../../src/worker/tools/types';
import { DO, makeSandbox, type Sandbox } from './helpers';

let sb: Sandbox;
const reg = createToolRegistry({ ripgrepPath: null });
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

const run = (name: string, input: unknown) => reg.execute(name, input, sb.ctx(), DO);

describe('write_file', () => {
  it('creates the file and its missing parents', async () => {
    const res = await run('write_file', { path: 'a/b/c/new.txt', content: 'hi\n' });
    expect(res).toEqual({ content: 'Created a/b/c/new.txt (3 bytes)', isError: false });
    expect(sb.read('a/b/c/new.txt')).toBe('hi\n');
  });

  it('overwrites an existing file completely (shorter content leaves no tail)', async () => {
    sb.write('f.txt', 'a long original content\n');
    const res = await run('write_file', { path: 'f.txt', content: 'short' });
    expect(res.content).toBe('Overwrote f.txt (5 bytes)');
    expect(sb.read('f.txt')).toBe('short');
  });

  it('writes multi-byte text exactly', async () => {
    await run('write_file', { path: 'u.txt', content: 'héllo — 世界 🎉' });
    expect(sb.read('u.txt')).toBe('héllo — 世界 🎉');
  });

  it('refuses to write a directory or a path that names no file', async () => {
    fs.mkdirSync(path.join(sb.root, 'd'));
    expect((await run('write_file', { path: 'd', content: 'x' })).content).toBe('d is a directory, not a file');
    expect((await run('write_file', { path: 'd/', content: 'x' })).content).toBe('d/ does not name a file');
    expect((await run('write_file', { path: '..', content: 'x' })).isError).toBe(true);
  });

  it('does not hang on a FIFO (no writer ever opens it: a blocking open would never return)', async () => {
    const fifo = path.join(sb.root, 'pipe');
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [fifo]);
    const w = await run('write_file', { path: 'pipe', content: 'x' });
    const r = await run('read_file', { path: 'pipe' });
    const e = await run('edit_file', { path: 'pipe', old_string: 'a', new_string: 'b' });
    expect(w).toEqual({ content: 'pipe is not a regular file', isError: true });
    expect(r).toEqual({ content: 'pipe is not a regular file', isError: true });
    expect(e).toEqual({ content: 'pipe is not a regular file', isError: true });
  });
});

describe('edit_file', () => {
  it('replaces exactly one occurrence', async () => {
    sb.write('f.ts', 'const a = 1;\nconst b = 2;\n');
    const res = await run('edit_file', { path: 'f.ts', old_string: 'b = 2', new_string: 'b = 3' });
    expect(res).toEqual({ content: 'Edited f.ts: replaced 1 occurrence', isError: false });
    expect(sb.read('f.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('says clearly when old_string is absent or ambiguous, and leaves the file alone', async () => {
    sb.write('f.ts', 'x\nx\n');
    expect(await run('edit_file', { path: 'f.ts', old_string: 'y', new_string: 'z' })).toEqual({
      content: 'old_string not found in f.ts',
      isError: true,
    });
    expect(await run('edit_file', { path: 'f.ts', old_string: 'x', new_string: 'z' })).toEqual({
      content: 'old_string matches 2 times in f.ts; add context or set replace_all',
      isError: true,
    });
    expect(sb.read('f.ts')).toBe('x\nx\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    sb.write('f.ts', 'foo bar foo\nfoo\n');
    const res = await run('edit_file', { path: 'f.ts', old_string: 'foo', new_string: 'qux', replace_all: true });
    expect(res.content).toBe('Edited f.ts: replaced 3 occurrences');
    expect(sb.read('f.ts')).toBe('qux bar qux\nqux\n');
  });

  it('inserts replacement text literally ($& and $1 are not patterns)', async () => {
    sb.write('f.txt', 'price\n');
    await run('edit_file', { path: 'f.txt', old_string: 'price', new_string: "$& $1 $$ $'" });
    expect(sb.read('f.txt')).toBe("$& $1 $$ $'\n");
  });

  it('keeps CRLF line endings when the model writes LF', async () => {
    sb.write('w.txt', 'line one\r\nline two\r\nline three\r\n');
    const res = await run('edit_file', {
      path: 'w.txt',
      old_string: 'line one\nline two',
      new_string: 'first\nsecond\nextra',
    });
    expect(res.isError).toBe(false);
    expect(sb.read('w.txt')).toBe('first\r\nsecond\r\nextra\r\nline three\r\n');
  });

  it('keeps a trailing newline the file had', () => {
    expect(applyEdit('a\nlast\n', { path: 'f', old_string: 'last\n', new_string: 'final' }).content).toBe('a\nfinal\n');
    expect(applyEdit('a\r\nlast\r\n', { path: 'f', old_string: 'last\n', new_string: 'final' }).content).toBe(
      'a\r\nfinal\r\n',
    );
    expect(applyEdit('a\nlast', { path: 'f', old_string: 'last', new_string: 'final' }).content).toBe('a\nfinal');
  });

  it('refuses a no-op edit, a missing file and a binary file', async () => {
    sb.write('f.txt', 'same\n');
    expect((await run('edit_file', { path: 'f.txt', old_string: 'same', new_string: 'same' })).content).toMatch(
      /nothing to change/,
    );
    expect(await run('edit_file', { path: 'missing.txt', old_string: 'a', new_string: 'b' })).toEqual({
      content: 'file not found: missing.txt',
      isError: true,
    });
    expect(fs.existsSync(path.join(sb.root, 'missing.txt'))).toBe(false);
    sb.write('b.bin', Buffer.from('ab\0cd'));
    expect((await run('edit_file', { path: 'b.bin', old_string: 'ab', new_string: 'x' })).content).toBe(
      'b.bin is a binary file; not edited',
    );
    expect(fs.readFileSync(path.join(sb.root, 'b.bin'))).toEqual(Buffer.from('ab\0cd'));
  });
});

/** The unified diff of a preview (undefined for any other kind). */
const diffOf = (p: ToolPreview | undefined): string | undefined => (p?.kind === 'diff' ? p.unifiedDiff : undefined);

describe('preview', () => {
  it('gives the unified diff of an edit without touching the disk', async () => {
    const abs = sb.write('src/f.ts', 'one\ntwo\nthree\n');
    const before = fs.statSync(abs).mtimeMs;
    const p = await reg.preview('edit_file', { path: 'src/f.ts', old_string: 'two', new_string: 'TWO' }, sb.ctx());
    expect(p?.kind).toBe('diff');
    expect(p?.path).toBe('src/f.ts');
    expect(diffOf(p)).toBe('--- a/src/f.ts\n+++ b/src/f.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n');
    expect(sb.read('src/f.ts')).toBe('one\ntwo\nthree\n');
    expect(fs.statSync(abs).mtimeMs).toBe(before);
  });

  it('shows a new file against /dev/null and creates no folder', async () => {
    const p = await reg.preview('write_file', { path: 'new/dir/x.txt', content: 'a\nb\n' }, sb.ctx());
    expect(diffOf(p)).toContain('--- /dev/null');
    expect(diffOf(p)).toContain('+a\n+b\n');
    expect(p?.path).toBe('new/dir/x.txt');
    expect(fs.existsSync(path.join(sb.root, 'new'))).toBe(false);
  });

  it('previews an overwrite as the diff against the current content', async () => {
    sb.write('f.txt', 'old\n');
    const p = await reg.preview('write_file', { path: 'f.txt', content: 'new\n' }, sb.ctx());
    expect(diffOf(p)).toContain('-old\n+new\n');
  });

  it('says an overwrite of a binary file, of a file over the limit, or with content over the limit cannot be previewed', async () => {
    sb.write('tool.bin', Buffer.from('ELF\0\x01\x02binary'));
    expect(await reg.preview('write_file', { path: 'tool.bin', content: 'x'.repeat(42) }, sb.ctx())).toEqual({
      kind: 'unpreviewable',
      path: 'tool.bin',
      reason: 'binary',
      currentBytes: 12,
      newBytes: 42,
    });
    const big = sb.write('big.txt', 'a\n'.repeat(MAX_WHOLE_FILE_BYTES / 2 + 1));
    expect(await reg.preview('write_file', { path: 'big.txt', content: 'small\n' }, sb.ctx())).toMatchObject({
      kind: 'unpreviewable',
      reason: 'too-large',
      currentBytes: fs.statSync(big).size,
      newBytes: 6,
    });
    expect(
      await reg.preview('edit_file', { path: 'tool.bin', old_string: 'ELF', new_string: 'x' }, sb.ctx()),
    ).toMatchObject({ kind: 'unpreviewable', reason: 'binary', newBytes: null });
    const huge = 'b'.repeat(MAX_WHOLE_FILE_BYTES + 1);
    expect(await reg.preview('write_file', { path: 'new.txt', content: huge }, sb.ctx())).toEqual({
      kind: 'unpreviewable',
      path: 'new.txt',
      reason: 'too-large',
      currentBytes: null,
      newBytes: MAX_WHOLE_FILE_BYTES + 1,
    });
    // Nothing was written by looking.
    expect(fs.existsSync(path.join(sb.root, 'new.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(sb.root, 'tool.bin'))).toEqual(Buffer.from('ELF\0\x01\x02binary'));
  });

  it('is undefined for read-only tools, invalid input, edits that cannot apply and paths outside', async () => {
    sb.write('f.txt', 'x\n');
    fs.writeFileSync(path.join(sb.outside, 'o.txt'), 'secret\n');
    fs.symlinkSync(path.join(sb.outside, 'o.txt'), path.join(sb.root, 'link.txt'));
    const cases: Array<[string, unknown]> = [
      ['read_file', { path: 'f.txt' }],
      ['write_file', { path: '' }],
      ['edit_file', { path: 'f.txt', old_string: 'nope', new_string: 'y' }],
      ['edit_file', { path: 'link.txt', old_string: 'secret', new_string: 'y' }],
      ['write_file', { path: '../outside/o.txt', content: 'y' }],
      ['write_file', { path: `${sb.outside}/n.txt`, content: 'y' }],
      ['unknown_tool', {}],
    ];
    for (const [name, input] of cases) expect(await reg.preview(name, input, sb.ctx())).toBeUndefined();
  });
});
