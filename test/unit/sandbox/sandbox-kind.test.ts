import { describe, expect, it } from 'vitest';
import { sandboxKindOf, withSandboxKind, type SandboxKindFacts } from '../../../src/main/core/sandbox/sandbox-kind';
import type { Decision, DecisionSource } from '../../../src/shared/permission';
import type { SandboxStatus } from '../../../src/shared/worker-protocol';

const working: SandboxStatus = { enabled: true, available: true, mechanism: 'bubblewrap' };
const allow = (source: DecisionSource): Decision => ({ decision: 'allow', source, rule: null, reason: 'r' });
const facts = (extra: Partial<SandboxKindFacts> = {}): SandboxKindFacts => ({
  tool: 'run_command',
  input: { command: 'rg TODO' },
  category: 'read',
  status: working,
  ...extra,
});

describe('the sandbox an allowed command runs in', () => {
  it('read-only only where nothing but the mode let a read-only verdict through', () => {
    expect(sandboxKindOf(allow('mode'), facts())).toBe('read-only');
    // The mode's exec column (bypassPermissions, a background sub-agent's "continue") keeps the workspace.
    expect(sandboxKindOf(allow('mode'), facts({ category: 'exec' }))).toBe('workspace');
    // A rule of any source, a hook, the classifier, a person: the workspace, read-only verdict or not.
    for (const source of ['user', 'project', 'local', 'session', 'cli', 'policy', 'hook', 'auto', 'approval'] as const)
      expect(sandboxKindOf(allow(source), facts()), source).toBe('workspace');
    // A call the engine never categorised is not read-only.
    expect(sandboxKindOf(allow('mode'), facts({ category: null }))).toBe('workspace');
  });

  it('names what confines nothing: turned off, unavailable, outside the sandbox', () => {
    expect(sandboxKindOf(allow('mode'), facts({ status: { enabled: false, available: false } }))).toBe('off');
    expect(sandboxKindOf(allow('approval'), facts({ status: { enabled: true, available: false, reason: 'x' } }))).toBe(
      'unavailable',
    );
    // Unavailable only for asking (an incomplete Read-deny mask): the sandbox is there and still confines.
    const incomplete: SandboxStatus = { enabled: true, available: false, reason: 'x', mechanism: 'bubblewrap' };
    expect(sandboxKindOf(allow('approval'), facts({ status: incomplete }))).toBe('workspace');
    expect(
      sandboxKindOf(allow('approval'), facts({ input: { command: 'make', unsandboxed: true }, category: 'exec' })),
    ).toBe('outside');
    expect(sandboxKindOf(allow('mode'), facts({ status: null }))).toBe('read-only');
  });

  it('is set on the allow of a command only, and a stray one is dropped from anything else', () => {
    expect(withSandboxKind(allow('mode'), facts())).toEqual({ ...allow('mode'), sandbox: 'read-only' });
    const deny: Decision = { decision: 'deny', source: 'hard', rule: null, reason: 'no', sandbox: 'workspace' };
    expect(withSandboxKind(deny, facts())).toEqual({ decision: 'deny', source: 'hard', rule: null, reason: 'no' });
    expect(withSandboxKind(allow('mode'), facts({ tool: 'read_file', input: { path: 'a' } }))).toEqual(allow('mode'));
    // A worker's own word is never kept: main recomputes it.
    expect(withSandboxKind({ ...allow('mode'), sandbox: 'workspace' }, facts()).sandbox).toBe('read-only');
  });
});
