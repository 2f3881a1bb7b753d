import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../../src/worker/tools/tool-set';
import { buildTree, DO, makeSandbox, type Sandbox } from './helpers';

let sb: Sandbox;
const reg = createToolRegistry({ ripgrepPath: null });
beforeEach(() => {
  sb = makeSandbox();
  buildTree(sb);
});
afterEach(() => sb.cleanup());

const find = async (input: unknown) => {
  const res = await reg.execute('find_files', input, sb.ctx(), DO);
  return res;
};
const lines = async (input: unknown) => (await find(input)).content.split('\n');

describe('find_files', () => {
  it('matches ** globs, sorted, respecting .gitignore (root and nested), skipping .git and node_modules', async () => {
    expect(await lines({ pattern: '**/*.ts' })).toEqual([
      'src/a-b.ts',
      'src/crlf.ts',
      'src/index.ts',
      'src/leak.ts',
      'src/util/strings.ts',
    ]);
    expect(await lines({ pattern: '**/*.js' })).toEqual(['lib/dist/kept.js']);
    expect(await lines({ pattern: '**/*.log' })).toEqual(['logs/keep.log']);
    expect(await lines({ pattern: '**/config' })).toEqual(['No files match **/config']);
  });

  it('matches relative to `path`, and shows paths relative to the project root', async () => {
    expect(await lines({ pattern: '*.ts', path: 'src' })).toEqual([
      'src/a-b.ts',
      'src/crlf.ts',
      'src/index.ts',
      'src/leak.ts',
    ]);
    expect(await lines({ pattern: '**/*', path: 'src/util' })).toEqual(['src/util/.gitignore', 'src/util/strings.ts']);
    expect(await lines({ pattern: '*.md' })).toEqual(['README.md']);
    expect(await lines({ pattern: './*.md' })).toEqual(['README.md']);
    expect(await lines({ pattern: `${sb.root}/src/util/*.ts` })).toEqual(['src/util/strings.ts']);
  });

  it('includes hidden files and does not enter symlinked folders', async () => {
    expect(await lines({ pattern: '.github/*' })).toEqual(['.github/workflow.yml']);
    // the symlink itself is listed (it is a name in the project); what lies behind it is not
    expect(await lines({ pattern: 'outdir/**' })).toEqual(['outdir']);
    expect(await lines({ pattern: '**/leak.txt' })).toEqual(['No files match **/leak.txt']);
  });

  it('refuses a search folder outside the roots, also through a symlink', async () => {
    for (const p of ['..', sb.outside, 'outdir', '../outside']) {
      const res = await find({ pattern: '**/*', path: p });
      expect(res.isError, p).toBe(true);
      expect(res.content).toMatch(/^path_outside_roots: /);
    }
    expect((await find({ pattern: '*', path: 'nope' })).content).toBe('file not found: nope');
    expect((await find({ pattern: '*', path: 'README.md' })).content).toBe('README.md is a file, not a folder');
  });

  it('caps the results at 1,000 with a note', async () => {
    for (let i = 0; i < 1_005; i++)
      fs.writeFileSync(path.join(sb.root, 'src', `f${String(i).padStart(4, '0')}.txt`), '');
    const out = await lines({ pattern: 'src/*.txt' });
    expect(out).toHaveLength(1_001);
    expect(out[0]).toBe('src/f0000.txt');
    expect(out[999]).toBe('src/f0999.txt');
    expect(out[1_000]).toBe('[5 more files not shown; results capped at 1,000: narrow the pattern or path]');
  });
});

describe('a walk gives way to a cancel', () => {
  /** 50 nested folders: the walk needs 50 folder listings, each a turn of the event loop. */
  function deepTree(): void {
    let rel = 'deep';
    for (let i = 0; i < 50; i++) rel += `/d${i}`;
    sb.write(`${rel}/needle.txt`, 'needle\n');
  }

  for (const [tool, input] of [
    ['find_files', { pattern: '**/needle.txt' }],
    ['search_code', { pattern: 'needle' }],
  ] as const) {
    it(`${tool}: a cancel on the next turn of the event loop stops the walk`, async () => {
      deepTree();
      // Without the cancel, the file is found.
      expect((await reg.execute(tool, input, sb.ctx(), DO)).content).toMatch(/needle/);
      const cancel = new AbortController();
      const running = reg.execute(tool, input, sb.ctx({ signal: cancel.signal }), DO);
      setImmediate(() => cancel.abort());
      expect(await running).toEqual({ content: `cancelled: ${tool} was cancelled`, isError: true });
    });
  }
});
