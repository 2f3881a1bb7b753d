import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../src/worker/tools/tool-set';
import { findRipgrep } from '../../src/worker/tools/ripgrep';
import { buildTree, DO, makeSandbox, type Sandbox } from '../unit/tools/helpers';

/** search_code through real ripgrep and through the JS fallback, on the same real tree: same answers. */
const rgPath = await findRipgrep();
let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox();
  buildTree(sb);
});
afterAll(() => sb.cleanup());

const withRg = createToolRegistry({ ripgrepPath: rgPath });
const withJs = createToolRegistry({ ripgrepPath: null });

async function both(input: Record<string, unknown>): Promise<string> {
  const a = await withRg.execute('search_code', input, sb.ctx(), DO);
  const b = await withJs.execute('search_code', input, sb.ctx(), DO);
  expect(b, `fallback vs ripgrep for ${JSON.stringify(input)}`).toEqual(a);
  return a.content;
}

describe('search_code', () => {
  it('finds ripgrep on this machine (the comparison below is real)', () => {
    expect(rgPath).not.toBeNull();
  });

  it('prints path:line:text, sorted, respecting .gitignore, skipping .git, node_modules, binaries and symlinks', async () => {
    expect(await both({ pattern: 'TODO' })).toBe(
      [
        '.github/workflow.yml:1:name: TODO',
        'README.md:2:TODO: write docs',
        'docs/guide.md:1:TODO guide',
        'lib/dist/kept.js:1:TODO nested dist is not anchored',
        'logs/keep.log:1:TODO keep me',
        'src/crlf.ts:1:first TODO',
        'src/index.ts:2:// TODO: more',
        'src/util/strings.ts:2:  return `Hello ${name}`; // TODO',
      ].join('\n'),
    );
  });

  it('is case-insensitive on request', async () => {
    const out = await both({ pattern: 'todo', case_insensitive: true, path: 'src' });
    expect(out.split('\n')).toEqual([
      'src/a-b.ts:1:todo lower case',
      'src/crlf.ts:1:first TODO',
      'src/index.ts:2:// TODO: more',
      'src/util/strings.ts:2:  return `Hello ${name}`; // TODO',
    ]);
  });

  it('limits to a glob, a folder or a single file', async () => {
    expect(await both({ pattern: 'TODO', glob: '*.md' })).toBe(
      'README.md:2:TODO: write docs\ndocs/guide.md:1:TODO guide',
    );
    expect(await both({ pattern: 'export', path: 'src/util' })).toBe(
      'src/util/strings.ts:1:export function hello(name: string) {',
    );
    expect(await both({ pattern: 'answer', path: 'src/index.ts' })).toBe('src/index.ts:1:export const answer = 42;');
  });

  it('supports regular expressions, anchors on CRLF lines included', async () => {
    expect(await both({ pattern: '^export (const|function) \\w+' })).toBe(
      'src/index.ts:1:export const answer = 42;\nsrc/util/strings.ts:1:export function hello(name: string) {',
    );
    expect(await both({ pattern: 'TODO$', path: 'src' })).toBe(
      'src/crlf.ts:1:first TODO\nsrc/util/strings.ts:2:  return `Hello ${name}`; // TODO',
    );
  });

  it('says when nothing matches', async () => {
    expect(await both({ pattern: 'no-such-text-anywhere' })).toBe('No matches for /no-such-text-anywhere/');
  });

  it('reports an invalid regular expression as an error in both', async () => {
    const a = await withRg.execute('search_code', { pattern: '(unclosed' }, sb.ctx(), DO);
    const b = await withJs.execute('search_code', { pattern: '(unclosed' }, sb.ctx(), DO);
    expect(a.isError).toBe(true);
    expect(b.isError).toBe(true);
    expect(a.content).toMatch(/^ripgrep failed/);
    expect(b.content).toMatch(/^invalid regular expression/);
  });

  it('refuses to search outside the roots, through .. or a symlink', async () => {
    for (const p of ['..', 'outdir', sb.outside, 'src/leak.ts']) {
      const res = await withRg.execute('search_code', { pattern: 'TODO', path: p }, sb.ctx(), DO);
      expect(res.content, p).toMatch(/^path_outside_roots: /);
      expect(res.content).not.toContain('TODO outside');
      expect(await withJs.execute('search_code', { pattern: 'TODO', path: p }, sb.ctx(), DO)).toEqual(res);
    }
  });

  it('caps the matches with a note, the same first matches in both', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `needle ${i}`).join('\n') + '\n';
    for (const name of ['m1.txt', 'm2.txt']) fs.writeFileSync(path.join(sb.root, 'src', name), many);
    try {
      const out = (await both({ pattern: 'needle', path: 'src' })).split('\n');
      expect(out).toHaveLength(501);
      expect(out[0]).toBe('src/m1.txt:1:needle 0');
      expect(out[499]).toBe('src/m2.txt:200:needle 199');
      expect(out[500]).toBe('[results capped at 500 matches; narrow the pattern, path or glob]');
    } finally {
      for (const name of ['m1.txt', 'm2.txt']) fs.rmSync(path.join(sb.root, 'src', name));
    }
  });

  it('cuts very long matching lines', async () => {
    fs.writeFileSync(path.join(sb.root, 'long.txt'), `start ${'y'.repeat(1_000)}\n`);
    try {
      const out = await both({ pattern: '^start', path: 'long.txt' });
      expect(out).toBe(`long.txt:1:start ${'y'.repeat(294)}… [706 more characters]`);
    } finally {
      fs.rmSync(path.join(sb.root, 'long.txt'));
    }
  });
});

describe('ignore files, the same through ripgrep, the JS search and find_files', () => {
  let ig: Sandbox;
  beforeAll(() => {
    ig = makeSandbox();
    ig.write('.gitignore', ['\\!important.md', '*.log', 'out/', 'notes.txt'].join('\n') + '\n');
    ig.write('.git/info/exclude', 'scratch/\n*.bak\nnotes.txt\n');
    ig.write('!important.md', 'needle bang\n');
    ig.write('main.ts', 'needle main\n');
    ig.write('app.log', 'needle log\n');
    ig.write('notes.txt', 'needle notes\n');
    ig.write('old.bak', 'needle bak\n');
    ig.write('scratch/tmp.ts', 'needle scratch\n');
    ig.write('out/bundle.js', 'needle out\n');
    ig.write('out/bundle.js.log', 'needle out log\n');
    ig.write('pkg/.gitignore', '!keep.log\n*.gen.ts\n');
    ig.write('pkg/keep.log', 'needle keep\n');
    ig.write('pkg/other.log', 'needle other\n');
    ig.write('pkg/a.gen.ts', 'needle gen\n');
    ig.write('pkg/a.ts', 'needle pkg\n');
    ig.write('b.gen.ts', 'needle root gen\n');
  });
  afterAll(() => ig.cleanup());

  const search = async (input: Record<string, unknown>): Promise<string[]> => {
    const a = await withRg.execute('search_code', input, ig.ctx(), DO);
    const b = await withJs.execute('search_code', input, ig.ctx(), DO);
    expect(b, `fallback vs ripgrep for ${JSON.stringify(input)}`).toEqual(a);
    return a.content.split('\n');
  };
  const find = async (input: Record<string, unknown>): Promise<string[]> =>
    (await withJs.execute('find_files', input, ig.ctx(), DO)).content.split('\n');

  it('an escaped \\! names one file and ignores nothing else; negation, nested files and .git/info/exclude apply', async () => {
    const expected = ['.gitignore', 'b.gen.ts', 'main.ts', 'pkg/.gitignore', 'pkg/a.ts', 'pkg/keep.log'];
    expect(await find({ pattern: '**/*' })).toEqual(expected);
    expect(await search({ pattern: 'needle' })).toEqual([
      'b.gen.ts:1:needle root gen',
      'main.ts:1:needle main',
      'pkg/a.ts:1:needle pkg',
      'pkg/keep.log:1:needle keep',
    ]);
  });

  it('looks inside an ignored folder when asked to, applying the rules to what is inside', async () => {
    expect(await find({ pattern: '**/*', path: 'out' })).toEqual(['out/bundle.js']);
    expect(await search({ pattern: 'needle', path: 'out' })).toEqual(['out/bundle.js:1:needle out']);
    expect(await search({ pattern: 'needle', path: 'scratch' })).toEqual(['scratch/tmp.ts:1:needle scratch']);
  });
});
