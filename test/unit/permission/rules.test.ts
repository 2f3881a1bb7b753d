import { describe, expect, it } from 'vitest';
import { compileCommandPattern } from '../../../src/main/core/permission/rules/command-pattern';
import { parseRule } from '../../../src/main/core/rule-syntax/parse-rule';
import { compilePathPattern } from '../../../src/main/core/permission/rules/path-pattern';

describe('parseRule', () => {
  it('maps Claude Code names and raw tool names to tools', () => {
    const tools = (r: string) => {
      const p = parseRule(r);
      if (!p.ok) throw new Error(p.reason);
      return p.rule.tools;
    };
    expect(tools('Bash(ls)')).toEqual(['run_command']);
    expect(tools('run_command(ls)')).toEqual(['run_command']);
    expect(tools('Read(.env)')).toEqual(['read_file', 'find_files', 'search_code']);
    expect(tools('Glob(src/**)')).toEqual(['find_files']);
    expect(tools('Grep(src/**)')).toEqual(['search_code']);
    expect(tools('Edit(src/**)')).toEqual(['write_file', 'edit_file']);
    expect(tools('Write(src/**)')).toEqual(['write_file', 'edit_file']);
    expect(tools('write_file(src/**)')).toEqual(['write_file']);
    expect(tools('Bash')).toEqual(['run_command']);
  });

  it('keeps rules for tools Gatehouse does not have, matching nothing', () => {
    for (const r of ['WebFetch(domain:example.com)', 'Skill(review)', 'NotebookEdit']) {
      const p = parseRule(r);
      expect(p.ok, r).toBe(true);
      if (p.ok) {
        expect(p.rule.tools).toEqual([]);
        expect(p.rule.kind).toBe('none');
      }
    }
  });

  it('reports malformed rules with a reason', () => {
    for (const r of ['', 'Bash(', 'Bash()', 'Bash(ls', 'Bash)', 'bash(ls)', '(ls)', 'Bash(a\nb)']) {
      const p = parseRule(r);
      expect(p.ok, JSON.stringify(r)).toBe(false);
      if (!p.ok) expect(p.reason.length).toBeGreaterThan(0);
    }
  });
});

describe('command patterns', () => {
  const m = (spec: string, cmd: string) => compileCommandPattern(spec)(cmd.split(' '));
  it('prefix rules honour word boundaries, both spellings', () => {
    for (const spec of ['npm run test:*', 'npm run test *']) {
      expect(m(spec, 'npm run test')).toBe(true);
      expect(m(spec, 'npm run test -- --watch')).toBe(true);
      expect(m(spec, 'npm run testx')).toBe(false);
      expect(m(spec, 'npm run test:unit')).toBe(false);
      expect(m(spec, 'npm run')).toBe(false);
      expect(m(spec, 'xnpm run test')).toBe(false);
    }
  });
  it('exact rules match exactly that command', () => {
    expect(m('git status', 'git status')).toBe(true);
    expect(m('git status', 'git status --short')).toBe(false);
    expect(m('git status', 'git statu')).toBe(false);
  });
  it('* elsewhere matches any run of characters', () => {
    expect(m('git * main', 'git push origin main')).toBe(true);
    expect(m('git * main', 'git push origin dev')).toBe(false);
    expect(m('*', 'anything at all')).toBe(true);
    expect(m('./gradlew:*', './gradlew build')).toBe(true);
  });
  it('regex metacharacters in rules are literal', () => {
    expect(m('echo a.b', 'echo axb')).toBe(false);
    expect(m('echo (x)', 'echo (x)')).toBe(true);
  });
});

describe('path patterns', () => {
  const base = { projectRoot: '/p/proj', home: '/home/u' };
  const m = (spec: string, abs: string) => compilePathPattern(spec, base)(abs);
  it('relative forms are relative to the project root', () => {
    for (const spec of ['src/**', './src/**', '/src/**']) {
      expect(m(spec, '/p/proj/src/a/b.ts'), spec).toBe(true);
      expect(m(spec, '/p/proj/lib/src/a.ts'), spec).toBe(false);
      expect(m(spec, '/p/other/src/a.ts'), spec).toBe(false);
    }
  });
  it('// is absolute and ~/ is the home directory', () => {
    expect(m('//etc/**', '/etc/passwd')).toBe(true);
    expect(m('//etc/**', '/p/proj/etc/passwd')).toBe(false);
    expect(m('~/.ssh/**', '/home/u/.ssh/id_rsa')).toBe(true);
    expect(m('~/.ssh/**', '/p/proj/.ssh/id_rsa')).toBe(false);
  });
  it('a pattern without a slash matches that name in any folder', () => {
    expect(m('.env', '/p/proj/.env')).toBe(true);
    expect(m('.env', '/p/proj/a/b/.env')).toBe(true);
    expect(m('.env', '/p/proj/.envrc')).toBe(false);
    expect(m('*.pem', '/p/proj/certs/x.pem')).toBe(true);
    expect(m('secrets', '/p/proj/x/secrets/key.txt')).toBe(true);
  });
  it('a trailing slash means everything below', () => {
    expect(m('docs/', '/p/proj/docs/a.md')).toBe(true);
  });
});
