import { describe, expect, it } from 'vitest';
import { ToolGate } from '../../../src/worker/agent/tool-gate';

// The one execution gate on names: agent mode, the run's allow-list (a sub-agent's tools), the active skills.

describe('ToolGate', () => {
  it('skills only narrow: a second skill intersects, never widens; system tools stay', () => {
    const gate = new ToolGate('chat', undefined, ['load_skill', 'task']);
    expect(gate.allows('run_command', 'exec')).toBe(true);
    gate.narrow('review', ['read_file', 'search_code']);
    gate.narrow('wide', ['read_file', 'run_command', 'write_file']);
    expect(gate.activeSkills).toEqual(['review', 'wide']);
    expect(gate.allows('read_file', 'readOnly')).toBe(true);
    expect(gate.refusal('search_code', 'readOnly')).toContain('active skill "wide"');
    expect(gate.refusal('run_command', 'exec')).toContain('active skill "review"');
    expect(gate.allows('load_skill', 'readOnly')).toBe(true);
    expect(gate.allows('task', 'readOnly')).toBe(true);
  });

  it('a skill without allowed-tools does not narrow', () => {
    const gate = new ToolGate('chat', undefined, ['load_skill']);
    gate.narrow('notes', undefined);
    expect(gate.allows('write_file', 'write')).toBe(true);
  });

  it("a run's allow-list bounds everything, system tools included, and a system tool the run does not offer is refused", () => {
    const gate = new ToolGate('chat', ['read_file', 'mcp__docs'], ['load_skill']);
    expect(gate.allows('mcp__docs__search', 'exec')).toBe(true);
    expect(gate.allows('mcp__docsx__search', 'exec')).toBe(false);
    expect(gate.refusal('load_skill', 'readOnly')).toMatch(/^tool_not_allowed: load_skill is not available/);
    expect(gate.refusal('task', 'readOnly')).toMatch(/^tool_not_allowed: task is not available/);
    expect(gate.refusal('write_file', 'write')).toMatch(
      /^tool_not_allowed: write_file is not in this run's tool allow-list/,
    );
  });

  it('plan mode keeps read-only tools only, whatever a skill allows', () => {
    const gate = new ToolGate('plan', undefined, ['load_skill']);
    gate.narrow('fix', ['read_file', 'write_file']);
    expect(
      gate.allowed([
        { name: 'read_file', safety: 'readOnly' },
        { name: 'find_files', safety: 'readOnly' },
        { name: 'write_file', safety: 'write' },
        { name: 'load_skill', safety: 'readOnly' },
      ]),
    ).toEqual(['read_file', 'load_skill']);
    expect(gate.refusal('write_file', 'write')).toContain('plan mode');
  });
});
