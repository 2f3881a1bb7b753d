import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HiddenFile } from '../../../src/shared/worker-protocol';
import { createToolRegistry } from '../../../src/worker/tools/tool-set';
import { leftOutNote, splitReadable, type ReadableCheck } from '../../../src/worker/tools/read-filter';
import { DO, makeSandbox, type Sandbox } from './helpers';

const live = (): AbortSignal => new AbortController().signal;
const hide = (paths: string[], wanted: (p: string) => boolean): HiddenFile[] =>
  paths.filter(wanted).map((path) => ({ path, decision: 'deny', reason: 'test' }));

describe('splitReadable', () => {
  it('asks in batches of at most 500 unique paths and keeps the order', async () => {
    const batches: string[][] = [];
    const check: ReadableCheck = async (paths) => (batches.push(paths), hide(paths, (p) => p.endsWith('7')));
    const paths = Array.from({ length: 1_200 }, (_, i) => `f${i}`);
    const split = await splitReadable([...paths, ...paths], check, live());
    expect(batches.map((b) => b.length)).toEqual([500, 500, 200]);
    expect(split.hidden).toEqual(paths.filter((p) => p.endsWith('7')));
    expect(split.visible.size).toBe(1_200 - split.hidden.length);
  });

  it('fails closed: no check, a check that throws, an answer about a path not asked', async () => {
    await expect(splitReadable(['a'], undefined, live())).rejects.toThrow(/^read_check_failed: /);
    await expect(splitReadable(['a'], async () => Promise.reject(new Error('boom')), live())).rejects.toThrow(
      /read_check_failed: .*boom/,
    );
    await expect(
      splitReadable(['a'], async () => [{ path: 'b', decision: 'deny', reason: '' }], live()),
    ).rejects.toThrow(/not asked about/);
  });

  it('asks nothing for no paths', async () => {
    const split = await splitReadable([], async () => Promise.reject(new Error('not called')), live());
    expect(split.hidden).toEqual([]);
  });
});

describe('leftOutNote', () => {
  it('names at most 10, counts the rest, says nothing when nothing was left out', () => {
    expect(leftOutNote([])).toBe('');
    expect(leftOutNote(['.env'])).toBe(
      '(1 file left out: reading it is denied or needs approval — .env; ask to read one with read_file)',
    );
    const many = Array.from({ length: 12 }, (_, i) => `s${i}`);
    expect(leftOutNote(many)).toBe(
      `(12 files left out: reading them is denied or needs approval — ${many.slice(0, 10).join(', ')} and 2 more; ask to read one with read_file)`,
    );
  });
});

describe('the search tools fail closed', () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox();
    sb.write('a.txt', 'TOKEN visible\n');
    sb.write('.env', 'TOKEN=hidden-value\n');
  });
  afterEach(() => sb.cleanup());

  for (const [name, ripgrepPath] of [
    ['ripgrep', undefined],
    ['js', null],
  ] as const) {
    it(`${name}: a failing check is an error result without any match`, async () => {
      const reg = createToolRegistry(ripgrepPath === null ? { ripgrepPath: null } : {});
      const failing: ReadableCheck = async () => Promise.reject(new Error('main is gone'));
      for (const [tool, input] of [
        ['search_code', { pattern: 'TOKEN' }],
        ['find_files', { pattern: '**/*' }],
      ] as const) {
        const res = await reg.execute(tool, input, sb.ctx({ readable: failing }), DO);
        expect(res.isError, tool).toBe(true);
        expect(res.content).toMatch(/^read_check_failed: /);
        expect(res.content).not.toMatch(/TOKEN|a\.txt|\.env/);
        const none = await reg.execute(tool, input, { ...sb.ctx(), readable: undefined }, DO);
        expect(none.isError).toBe(true);
      }
    });

    it(`${name}: only what main lets through is shown`, async () => {
      const reg = createToolRegistry(ripgrepPath === null ? { ripgrepPath: null } : {});
      const check: ReadableCheck = async (paths) => hide(paths, (p) => p === '.env');
      const res = await reg.execute('search_code', { pattern: 'TOKEN' }, sb.ctx({ readable: check }), DO);
      expect(res.content).toBe(
        'a.txt:1:TOKEN visible\n(1 file left out: reading it is denied or needs approval — .env; ask to read one with read_file)',
      );
    });
  }
});

describe('ripgrep output that names files it did not list', () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox();
    sb.write('a.txt', 'TOKEN visible\n');
    sb.write('secrets/key.txt', 'TOKEN secret\n');
  });
  afterEach(() => sb.cleanup());

  it('keeps only matches in files that were listed and judged: `..` segments, other folders and outside paths are dropped', async () => {
    // A stand-in for rg: `--files` lists a.txt only; the search reports matches under other names.
    const match = (p: string, text: string): string =>
      JSON.stringify({ type: 'match', data: { path: { text: p }, lines: { text: `${text}\n` }, line_number: 1 } });
    const lines = [
      match('./a.txt', 'TOKEN visible'),
      match('./secrets/../secrets/key.txt', 'TOKEN secret'),
      match('../outside/x', 'TOKEN outside'),
      match('sub/../a.txt', 'TOKEN again'),
      match('-e', 'TOKEN dash'),
    ];
    const fakeRg = sb.write(
      '../bin/rg',
      `#!/bin/sh\nif [ "$1" = "--files" ]; then printf './a.txt\\0'; exit 0; fi\ncat <<'EOF_RG'\n${lines.join('\n')}\nEOF_RG\n`,
    );
    fs.chmodSync(fakeRg, 0o755);
    const reg = createToolRegistry({ ripgrepPath: fakeRg });
    const res = await reg.execute('search_code', { pattern: 'TOKEN' }, sb.ctx(), DO);
    expect(res.isError, res.content).toBe(false);
    expect(res.content).toBe('a.txt:1:TOKEN visible\na.txt:1:TOKEN again');
  });
});
