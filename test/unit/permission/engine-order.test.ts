import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DecisionSchema, type PermissionMode } from '../../../src/shared/permission';
import { applyApproval } from '../../../src/main/core/permission/approvals';
import { cmd, edit, makeFixture, read, write, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

describe('every decision carries decision, source, rule and a reason', () => {
  it('matches the shared Decision schema', async () => {
    const e = await fx.engine();
    for (const call of [
      read('src/index.ts'),
      write('src/x.ts'),
      cmd('npm install'),
      { tool: 'nope', input: {} },
      { tool: 'read_file', input: {} },
      42,
    ]) {
      const d = await e.decide(call);
      expect(DecisionSchema.parse(d)).toEqual(d);
      expect(d.reason.length).toBeGreaterThan(5);
    }
  });
});

describe('1. agent mode', () => {
  it('plan mode only has read-only tools: anything else is denied, even in bypass and after an approval', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions', agentMode: 'plan' });
    for (const call of [write('src/x.ts'), edit('src/index.ts'), cmd('ls'), { tool: 'unknown_tool', input: {} }]) {
      expect(await e.decide(call)).toMatchObject({ decision: 'deny', source: 'agent-mode' });
      expect(await applyApproval(e, call, { kind: 'once' })).toMatchObject({ decision: 'deny', source: 'agent-mode' });
    }
    expect((await e.decide(read('src/index.ts'))).decision).toBe('allow');
    expect((await e.decide({ tool: 'find_files', input: { pattern: '*.ts' } })).decision).toBe('allow');
  });
  it('a plan-mode agent cannot even write with a matching allow rule', async () => {
    fx.settings('user', { allow: ['Edit'] });
    const e = await fx.engine({ agentMode: 'plan' });
    expect(await e.decide(write('src/x.ts'))).toMatchObject({ decision: 'deny', source: 'agent-mode' });
  });
  it('chat and do modes have every tool', async () => {
    for (const agentMode of ['chat', 'do'] as const) {
      const e = await fx.engine({ mode: 'bypassPermissions', agentMode });
      expect((await e.decide(write('src/x.ts'))).decision).toBe('allow');
    }
  });
});

describe('2. known tool, valid input', () => {
  it('unknown tool asks (unknown)', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide({ tool: 'WebFetch', input: { url: 'x' } })).toMatchObject({
      decision: 'ask',
      source: 'unknown',
    });
  });
  it('input that fails the schema is denied with the validation message', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    const d = await e.decide({ tool: 'read_file', input: {} });
    expect(d).toMatchObject({ decision: 'deny', source: 'schema' });
    expect(d.reason).toContain('path');
    expect(await e.decide({ tool: 'run_command', input: { command: 42 } })).toMatchObject({
      decision: 'deny',
      source: 'schema',
    });
    expect(
      (await e.decide({ tool: 'edit_file', input: { path: 'a', old_string: '', new_string: 'x' } })).reason,
    ).toContain('old_string must not be empty');
    expect(await e.decide({ tool: 'read_file' })).toMatchObject({ decision: 'deny', source: 'schema' });
    expect(await e.decide(null)).toMatchObject({ decision: 'deny', source: 'schema' });
  });
});

describe('7. mode fallback table', () => {
  const table: Record<PermissionMode, [string, string, string]> = {
    strict: ['ask', 'ask', 'ask'],
    default: ['allow', 'ask', 'ask'],
    acceptEdits: ['allow', 'allow', 'ask'],
    auto: ['allow', 'allow', 'ask'],
    bypassPermissions: ['allow', 'allow', 'allow'],
  };
  for (const [mode, [r, w, x]] of Object.entries(table) as [PermissionMode, [string, string, string]][]) {
    it(`${mode}: read ${r}, write ${w}, exec ${x}`, async () => {
      const e = await fx.engine({ mode });
      expect(await e.decide(read('src/index.ts'))).toMatchObject({ decision: r, source: 'mode' });
      expect(await e.decide({ tool: 'search_code', input: { pattern: 'x' } })).toMatchObject({
        decision: r,
        source: 'mode',
      });
      expect(await e.decide(write('src/new.ts'))).toMatchObject({ decision: w, source: 'mode' });
      expect(await e.decide(edit('src/index.ts'))).toMatchObject({ decision: w, source: 'mode' });
      expect(await e.decide(cmd('npm install'))).toMatchObject({ decision: x, source: 'mode' });
      // A command proved read-only counts as a read.
      expect(await e.decide(cmd('ls -la src'))).toMatchObject({ decision: r, source: 'mode' });
    });
  }
  it('the settings mode applies when there is no --mode; --mode beats it', async () => {
    fx.settings('project', { mode: 'acceptEdits' });
    expect((await (await fx.engine()).decide(write('src/x.ts'))).decision).toBe('allow');
    expect((await (await fx.engine({ mode: 'default' })).decide(write('src/x.ts'))).decision).toBe('ask');
    fx.settings('local', { mode: 'strict' });
    expect((await (await fx.engine()).decide(read('src/index.ts'))).decision).toBe('ask');
  });
  it('per-call overrides of the mode', async () => {
    const e = await fx.engine();
    expect((await e.decide(write('src/x.ts'), { mode: 'bypassPermissions' })).decision).toBe('allow');
    expect((await e.decide(write('src/x.ts'), { agentMode: 'plan' })).source).toBe('agent-mode');
  });
});
