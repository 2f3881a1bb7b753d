import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IgnoreStack } from '../../../src/worker/tools/gitignore';
import { truncateHeadTail } from '../../../src/worker/tools/truncate';
import { cleanTerminalOutput } from '../../../src/shared/terminal-text';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** The real IgnoreStack, loaded from a real .gitignore in a temp folder (in `base` below it when given). */
async function stackOf(text: string, base = ''): Promise<IgnoreStack> {
  const root = tempRoot();
  const dir = base === '' ? root : path.join(root, base);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, '.gitignore'), text);
  return IgnoreStack.forFolder(root, base);
}

function tempRoot(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ignore-')));
  dirs.push(root);
  return root;
}

/** Writes `files` (relative path -> content) under a new temp root. */
function tree(files: Record<string, string>): string {
  const root = tempRoot();
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

describe('gitignore rules', async () => {
  const g = await stackOf(
    [
      '# comment',
      '',
      '*.log',
      '!keep.log',
      'build/',
      '/dist',
      'docs/*.tmp',
      '\\#hash',
      'trailing   ',
      '**/gen/**',
    ].join('\n'),
  );

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
  it('reads an escaped \\! as a name starting with !, not as a negation of everything', async () => {
    const s = await stackOf('\\!important.txt\n*.log\n');
    expect(s.isIgnored('!important.txt', false)).toBe(true);
    expect(s.isIgnored('important.txt', false)).toBe(false);
    expect(s.isIgnored('src/index.ts', false)).toBe(false);
    expect(s.isIgnored('src', true)).toBe(false);
    expect(s.isIgnored('a.log', false)).toBe(true);
  });
  it("cannot re-include a file whose folder is ignored (git's rule)", async () => {
    const s = await stackOf('logs/\n!logs/keep.log\n');
    expect(s.isIgnored('logs', true)).toBe(true);
    expect(s.isIgnored('logs/keep.log', false)).toBe(true);
  });
  it('scopes nested rules to their folder', async () => {
    const nested = await stackOf('*.ts\n', 'pkg');
    expect(nested.isIgnored('pkg/a.ts', false)).toBe(true);
    expect(nested.isIgnored('pkg/x/a.ts', false)).toBe(true);
    expect(nested.isIgnored('a.ts', false)).toBe(false);
    expect(nested.isIgnored('pkg2/a.ts', false)).toBe(false);
  });
  it('lets a deeper .gitignore override its parent, both ways', async () => {
    const root = tree({ '.gitignore': '*.gen\n!*.keep\n', 'pkg/.gitignore': '!mine.gen\n*.keep\n/local\n' });
    const s = await IgnoreStack.forFolder(root, 'pkg');
    expect(s.isIgnored('other.gen', false)).toBe(true);
    expect(s.isIgnored('pkg/other.gen', false)).toBe(true);
    expect(s.isIgnored('pkg/mine.gen', false)).toBe(false);
    expect(s.isIgnored('mine.gen', false)).toBe(true);
    expect(s.isIgnored('a.keep', false)).toBe(false);
    expect(s.isIgnored('pkg/a.keep', false)).toBe(true);
    // anchored to pkg/, not to the root
    expect(s.isIgnored('pkg/local', true)).toBe(true);
    expect(s.isIgnored('local', true)).toBe(false);
  });
  it('reads .git/info/exclude, below every .gitignore in precedence', async () => {
    const root = tree({ '.git/info/exclude': 'scratch/\n*.bak\nnotes.md\n', '.gitignore': '!notes.md\n' });
    const s = await IgnoreStack.forFolder(root, '');
    expect(s.isIgnored('scratch', true)).toBe(true);
    expect(s.isIgnored('src/old.bak', false)).toBe(true);
    expect(s.isIgnored('notes.md', false)).toBe(false);
    expect(s.isIgnored('src/new.ts', false)).toBe(false);
  });
  it('finds the exclude file of a worktree through its .git file and commondir', async () => {
    const root = tree({
      'repo/.git/info/exclude': '*.local\n',
      'repo/.git/worktrees/wt/commondir': '../..\n',
    });
    const wt = path.join(root, 'wt');
    fs.mkdirSync(wt);
    fs.writeFileSync(path.join(wt, '.git'), `gitdir: ${path.join(root, 'repo/.git/worktrees/wt')}\n`);
    const s = await IgnoreStack.forFolder(wt, '');
    expect(s.isIgnored('settings.local', false)).toBe(true);
    expect(s.isIgnored('settings.json', false)).toBe(false);
  });
  it('does not carry ignore rules into a nested repository', async () => {
    const root = tree({
      '.gitignore': '*.log\n',
      'vendor/lib/.git/HEAD': 'ref: x\n',
      'vendor/lib/.gitignore': '*.tmp\n',
    });
    const s = await IgnoreStack.forFolder(root, 'vendor/lib');
    expect(s.isIgnored('vendor/lib/a.log', false)).toBe(false);
    expect(s.isIgnored('vendor/lib/a.tmp', false)).toBe(true);
  });
  it('ignores nothing for an empty, unreadable or oversized .gitignore', async () => {
    expect((await stackOf('')).isIgnored('a', false)).toBe(false);
    const root = tree({ '.gitignore': '*\n'.padEnd(2 * 1024 * 1024, '#') });
    expect((await IgnoreStack.forFolder(root, '')).isIgnored('a', false)).toBe(false);
    const linked = tree({ 'elsewhere/rules': '*\n' });
    fs.symlinkSync(path.join(linked, 'elsewhere/rules'), path.join(linked, '.gitignore'));
    expect((await IgnoreStack.forFolder(linked, '')).isIgnored('a', false)).toBe(false);
  });
  it('exempts the folders leading to a search started inside an ignored folder, not what lies in it', async () => {
    const root = tree({ '.gitignore': 'build/\n*.map\nwe[ir]d/\n' });
    const s = (await IgnoreStack.forFolder(root, 'build/sub')).exemptingPathTo('build/sub');
    expect(s.isIgnored('build/sub/out.js', false)).toBe(false);
    expect(s.isIgnored('build/sub/out.js.map', false)).toBe(true);
    expect(s.isIgnored('build/sub/build', true)).toBe(true);
    const odd = (await IgnoreStack.forFolder(root, 'we[ir]d')).exemptingPathTo('we[ir]d');
    expect(odd.isIgnored('we[ir]d/x.ts', false)).toBe(false);
    expect(odd.isIgnored('wid/x.ts', true)).toBe(false);
    expect(odd.isIgnored('we[ir]d/x.map', false)).toBe(true);
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
});
