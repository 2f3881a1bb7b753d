import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IgnoreStack } from '../../../src/worker/tools/gitignore';
import { truncateHeadTail } from '../../../src/worker/tools/truncate';
import { cleanTerminalOutput, HeadTailCollector } from '../../../src/worker/tools/terminal-output';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** The real IgnoreStack, loaded from a real .gitignore in a temp folder (in `base` below it when given). */
function stackOf(text: string, base = ''): IgnoreStack {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ignore-')));
  dirs.push(root);
  const dir = base === '' ? root : path.join(root, base);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, '.gitignore'), text);
  return IgnoreStack.forFolder(root, base);
}

describe('gitignore rules', () => {
  const g = stackOf(['# comment', '', '*.log', '!keep.log', 'build/', '/dist', 'docs/*.tmp', '\\#hash', 'trailing   ', '**/gen/**'].join('\n'));

  it('matches unanchored names at any depth', () => {
    expect(g.isIgnored('a.log', false)).toBe(true);
    expect(g.isIgnored('deep/down/b.log', false)).toBe(true);
    expect(g.isIgnored('a.log.txt', false)).toBe(false);
  });
  it('re-includes with !', () => {
    expect(g.isIgnored('keep.log', false)).toBe(false);
    expect(g.isIgnored('x/keep.log', false)).toBe(false);
  });
  it('applies dir-only patterns to folders only', () => {
    expect(g.isIgnored('build', true)).toBe(true);
    expect(g.isIgnored('src/build', true)).toBe(true);
    expect(g.isIgnored('build', false)).toBe(false);
  });
  it('anchors /x and a/b to the .gitignore folder', () => {
    expect(g.isIgnored('dist', true)).toBe(true);
    expect(g.isIgnored('src/dist', true)).toBe(false);
    expect(g.isIgnored('docs/a.tmp', false)).toBe(true);
    expect(g.isIgnored('x/docs/a.tmp', false)).toBe(false);
    expect(g.isIgnored('docs/sub/a.tmp', false)).toBe(false);
  });
  it('handles escapes, trailing spaces and **', () => {
    expect(g.isIgnored('#hash', false)).toBe(true);
    expect(g.isIgnored('comment', false)).toBe(false);
    expect(g.isIgnored('trailing', false)).toBe(true);
    expect(g.isIgnored('a/gen/b/c.ts', false)).toBe(true);
  });
  it('scopes nested rules to their folder', () => {
    const nested = stackOf('*.ts\n', 'pkg');
    expect(nested.isIgnored('pkg/a.ts', false)).toBe(true);
    expect(nested.isIgnored('pkg/x/a.ts', false)).toBe(true);
    expect(nested.isIgnored('a.ts', false)).toBe(false);
    expect(nested.isIgnored('pkg2/a.ts', false)).toBe(false);
  });
});

describe('output helpers', () => {
  it('keeps head and tail with the count of what was cut', () => {
    const text = 'a'.repeat(50_000) + 'END';
    const cut = truncateHeadTail(text, 1_000);
    expect(cut.length).toBeLessThanOrEqual(1_000);
    expect(cut.startsWith('aaa')).toBe(true);
    expect(cut.endsWith('END')).toBe(true);
    const note = /\n?\[\.\.\. ([\d,]+) characters omitted \.\.\.\]\n?/.exec(cut);
    expect(note).not.toBeNull();
    const omitted = Number((note?.[1] ?? '').replace(/,/g, ''));
    expect(cut.length - (note?.[0].length ?? 0) + omitted).toBe(text.length);
    expect(truncateHeadTail('short', 10)).toBe('short');
  });

  it('strips terminal escapes and redraws for the model', () => {
    expect(cleanTerminalOutput('\x1b[31mred\x1b[0m\r\nok\r\n')).toBe('red\nok\n');
    expect(cleanTerminalOutput('10%\r50%\r100%\r\ndone')).toBe('100%\ndone');
    expect(cleanTerminalOutput('\x1b]0;title\x07x\x07\x08y')).toBe('xy');
  });

  it('collects the two ends of a long stream', () => {
    const c = new HeadTailCollector(10);
    for (let i = 0; i < 100; i++) c.push(String(i % 10));
    expect(c.text()).toBe('0123456789\n[... 80 characters omitted ...]\n0123456789');
  });
});
