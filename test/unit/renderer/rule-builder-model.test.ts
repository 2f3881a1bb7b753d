import { describe, expect, it } from 'vitest';
import { seedStart } from '../../../src/renderer/src/rules/builder/seed';
import { ancestors, locate, rowKey, visibleRows } from '../../../src/renderer/src/rules/builder/tree-model';
import { commandRule, webRule } from '../../../src/renderer/src/rules/builder/rule-text';
import type { FolderRoot } from '../../../src/shared/rule-builder-contract';

const project: FolderRoot = { path: '/work/p', kind: 'project' };
const extra: FolderRoot = { path: '/work/p/vendor/lib', kind: 'additional' };
const other: FolderRoot = { path: '/srv/shared', kind: 'additional' };

describe('rule builder: where a call’s path lies in the tree', () => {
  it('a relative path is in the project; an absolute one in the deepest root that holds it', () => {
    expect(locate('src/a.ts', [project, other])).toEqual({ root: project, rel: 'src/a.ts' });
    expect(locate('./src//b.ts', [project])).toEqual({ root: project, rel: 'src/b.ts' });
    expect(locate('/work/p/src/a.ts', [project, extra])).toEqual({ root: project, rel: 'src/a.ts' });
    expect(locate('/work/p/vendor/lib/x.js', [project, extra])).toEqual({ root: extra, rel: 'x.js' });
    expect(locate('/srv/shared', [project, other])).toEqual({ root: other, rel: '' });
    expect(locate('', [project])).toEqual({ root: project, rel: '' });
  });

  it('a path outside every root, climbing with .., under ~, or a root’s look-alike is not placed', () => {
    expect(locate('/work/project2/a', [project])).toBeNull();
    expect(locate('../etc/passwd', [project])).toBeNull();
    expect(locate('src/../../x', [project])).toBeNull();
    expect(locate('/work/p/../q/a', [project])).toBeNull();
    expect(locate('~/notes.txt', [project])).toBeNull();
    expect(locate('a', [])).toBeNull();
  });

  it('opens every folder above a path, outermost first', () => {
    expect(ancestors('src/lib/a.ts')).toEqual(['', 'src', 'src/lib']);
    expect(ancestors('a.ts')).toEqual(['']);
    expect(ancestors('')).toEqual(['']);
  });

  it('shows the rows of open folders only, with levels, positions and parents', () => {
    const listings = new Map([
      [
        rowKey(project.path, ''),
        {
          entries: [
            { name: 'src', kind: 'dir' as const },
            { name: 'a.md', kind: 'file' as const },
          ],
          truncated: false,
        },
      ],
      [rowKey(project.path, 'src'), { entries: [{ name: 'x.ts', kind: 'file' as const }], truncated: false }],
    ]);
    const closed = visibleRows([project, other], new Set([rowKey(project.path, '')]), listings);
    expect(closed.map((r) => `${r.level}:${r.rel || r.name}`)).toEqual(['1:p', '2:src', '2:a.md', '1:/srv/shared']);
    const open = visibleRows(
      [project, other],
      new Set([rowKey(project.path, ''), rowKey(project.path, 'src')]),
      listings,
    );
    const x = open.find((r) => r.rel === 'src/x.ts')!;
    expect(x).toMatchObject({ level: 3, pos: 1, size: 1, parent: rowKey(project.path, 'src') });
    expect(open.find((r) => r.rel === 'a.md')).toMatchObject({ pos: 2, size: 2 });
  });
});

describe('rule builder: where "Make a rule" starts from', () => {
  it('a command, a read, a write and an MCP tool; nothing for a call without a target', () => {
    expect(seedStart({ tool: 'run_command', input: { command: 'npm test' } })).toEqual({
      kind: 'command',
      command: 'npm test',
    });
    expect(seedStart({ tool: 'read_file', input: { path: 'src/a.ts' } })).toEqual({ kind: 'read', path: 'src/a.ts' });
    expect(seedStart({ tool: 'search_code', input: { pattern: 'x' } })).toEqual({ kind: 'read', path: '' });
    expect(seedStart({ tool: 'edit_file', input: { path: 'b.ts', old_string: 'a', new_string: 'b' } })).toEqual({
      kind: 'edit',
      path: 'b.ts',
    });
    expect(seedStart({ tool: 'mcp__tracker__create_issue', input: {} })).toEqual({
      kind: 'mcp',
      server: 'tracker',
      tool: 'create_issue',
    });
    expect(seedStart({ tool: 'run_command', input: { command: '  ' } })).toBeNull();
    expect(seedStart({ tool: 'write_file', input: 'not an object' })).toBeNull();
    expect(seedStart({ tool: 'task', input: { prompt: 'x' } })).toBeNull();
  });
});

describe('rule builder: rule text', () => {
  const w = (text: string, unusable = false) => ({ text, glob: text.includes('*'), dynamic: false, unusable });

  it('exactly these words, or these words and anything after; none past a word a rule cannot spell', () => {
    const words = [w('npm'), w('run'), w('lint'), w('--fix')];
    expect(commandRule(words, 3, 'exact')).toBe('Bash(npm run lint)');
    expect(commandRule(words, 3, 'prefix')).toBe('Bash(npm run lint:*)');
    expect(commandRule(words, 0, 'prefix')).toBeNull();
    expect(commandRule([w('echo'), w('a\nb', true)], 2, 'exact')).toBeNull();
  });

  it('a web domain, or nothing for text that is not one', () => {
    expect(webRule(' Example.COM ')).toBe('WebFetch(domain:example.com)');
    expect(webRule('*.example.com')).toBe('WebFetch(domain:*.example.com)');
    expect(webRule('https://example.com/x')).toBeNull();
    expect(webRule('a b')).toBeNull();
  });
});
