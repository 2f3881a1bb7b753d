import { describe, expect, it } from 'vitest';
import { splitFrontMatter, toolList } from '../../../src/main/core/skills/front-matter';
import { toolListAllows, translateToolEntry } from '../../../src/shared/skills-contract';
import { TOOL_NAMES } from '../../../src/shared/tools';

// SKILL.md / agent files as people write them (CRLF, a BOM, lists or comma strings), and the malformed ones.

describe('front matter', () => {
  it('reads CRLF files with a BOM, and keeps the body', () => {
    const parsed = splitFrontMatter('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\n\r\nBody line\r\n');
    expect(parsed).toEqual({ ok: true, data: { name: 'a', description: 'b' }, body: 'Body line' });
  });

  it.each([
    ['name: a\n', 'no front matter'],
    ['---\nname: a\n', 'not closed'],
    ['---\nname: [a\n---\n', 'not valid YAML'],
    ['---\n- a\n---\n', 'must be a mapping'],
    ['---\nname: a\nname: b\n---\n', 'not valid YAML'],
  ])('refuses %j: %s', (text, why) => {
    const parsed = splitFrontMatter(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toContain(why);
  });

  it('tool lists: a comma string (commas inside a specifier kept) or a list', () => {
    expect(toolList('Read, Bash(git diff, log), Grep')).toEqual(['Read', 'Bash(git diff, log)', 'Grep']);
    expect(toolList(['Read', ' Write '])).toEqual(['Read', 'Write']);
    expect(toolList(undefined)).toBeUndefined();
    expect(toolList({ a: 1 })).toEqual({ problem: expect.stringContaining('comma-separated') });
  });
});

describe('tool entries', () => {
  it("translate Claude Code's names; refuse specifiers and unknown names (left out: narrower, never wider)", () => {
    expect(translateToolEntry('Read', TOOL_NAMES)).toEqual(['read_file']);
    expect(translateToolEntry('Bash', TOOL_NAMES)).toEqual(['run_command']);
    expect(translateToolEntry('write_file', TOOL_NAMES)).toEqual(['write_file']);
    expect(translateToolEntry('mcp__github__*', TOOL_NAMES)).toEqual(['mcp__github__*']);
    expect(translateToolEntry('Bash(git *)', TOOL_NAMES)).toContain('a specifier is not supported');
    expect(translateToolEntry('WebFetch', TOOL_NAMES)).toContain('no such tool');
  });

  it('MCP entries cover a server or one tool, never a server whose name merely starts the same', () => {
    expect(toolListAllows(['mcp__github'], 'mcp__github__issues')).toBe(true);
    expect(toolListAllows(['mcp__github__*'], 'mcp__github__issues')).toBe(true);
    expect(toolListAllows(['mcp__github__issues'], 'mcp__github__issues')).toBe(true);
    expect(toolListAllows(['mcp__github__issues'], 'mcp__github__pulls')).toBe(false);
    expect(toolListAllows(['mcp__git'], 'mcp__github__issues')).toBe(false);
    expect(toolListAllows(['mcp__git__*'], 'mcp__github__issues')).toBe(false);
    expect(toolListAllows(['read_file'], 'run_command')).toBe(false);
  });
});
