import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replayedCalls } from '../../../src/main/services/app/rule-builder/audit-replay';
import { createRuleBuilderHandlers } from '../../../src/main/services/app/rule-builder/rule-builder-handlers';
import { createRulesHandlers } from '../../../src/main/services/app/rules-handlers';
import { createPermissionEngine } from '../../../src/main/core/permission/create-engine';
import type { AuditRecord } from '../../../src/shared/audit-contract';
import type { RuleBehavior } from '../../../src/shared/permission';
import type { EditableScope } from '../../../src/shared/rules-contract';
import { removeTempDirs, rulesDirs, write } from '../rules-helpers';

// The replay judges the audit log's recent calls with a rule not written yet. It is right when it names exactly the
// calls whose decision changes once the rule really is in its file: checked here against the engine itself.

const CALLS: { tool: string; input: Record<string, unknown> }[] = [
  { tool: 'run_command', input: { command: 'npm run lint --fix' } },
  { tool: 'run_command', input: { command: 'npm run lint' } },
  { tool: 'run_command', input: { command: 'npm run lintx' } },
  { tool: 'run_command', input: { command: 'npm test' } },
  { tool: 'run_command', input: { command: 'npm run lint && rm -rf build' } },
  { tool: 'run_command', input: { command: 'git push origin main' } },
  { tool: 'read_file', input: { path: 'src/a.ts' } },
  { tool: 'read_file', input: { path: '.env' } },
  { tool: 'write_file', input: { path: 'src/new.ts', content: '[12 chars]' } },
  { tool: 'edit_file', input: { path: 'docs/readme.md', old_string: 'a', new_string: 'b' } },
  { tool: 'mcp__tracker__create_issue', input: { title: 'x' } },
];

describe('rule builder: replaying the audit log with a rule not written yet', () => {
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let trusted: boolean;
  const trust = { isTrusted: () => Promise.resolve(trusted) };
  const builder = () => createRuleBuilderHandlers({ currentProject: () => project, configDir: home, env, trust });
  const rules = () => createRulesHandlers({ currentProject: () => project, configDir: home, env, trust });

  /** Every call of CALLS decided once by a real engine, recorded in the real audit log. */
  async function recordCalls(): Promise<void> {
    const engine = await createPermissionEngine({ projectRoot: project, configDir: home, env, trust, sessionId: 's1' });
    for (const call of CALLS) await engine.decide(call);
    await engine.flushAudit();
  }

  /** What the engine decides for each call right now (a fresh engine: the settings files as they are). */
  async function decisions(): Promise<string[]> {
    const engine = await createPermissionEngine({ projectRoot: project, configDir: home, env, trust, audit: null });
    return Promise.all(CALLS.map(async (c) => (await engine.evaluate(c)).decision.decision));
  }

  /** The replay's flips, then the flips the engine shows once the rule is written (and removed again). */
  async function replayAndWrite(rule: string, behavior: RuleBehavior, scope: EditableScope) {
    const replayed = await builder().replayRule({ rule, behavior, scope });
    const before = await decisions();
    await rules().addRule({ rule, behavior, scope });
    const after = await decisions();
    await rules().removeRule({ rule, behavior, scope });
    const real = CALLS.flatMap((c, i) => (before[i] !== after[i] ? [`${c.tool} ${before[i]}->${after[i]}`] : []));
    const flips = replayed.flips.map((f) => `${f.tool} ${f.before.decision}->${f.after.decision}`);
    return { replayed, flips, real };
  }

  beforeEach(async () => {
    ({ home, project, env } = rulesDirs('rb-replay'));
    trusted = true;
    write(path.join(project, 'src/a.ts'), 'a\n');
    write(path.join(project, 'docs/readme.md'), 'a\n');
    write(path.join(project, '.env'), 'TOKEN=1\n');
    write(path.join(home, 'settings.yaml'), 'permissions:\n  ask: ["Bash(git push:*)"]\n');
    await recordCalls();
  });
  afterEach(removeTempDirs);

  // The last column: how many calls flip (ask beats allow: the user's ask rule keeps `git push` asking).
  it.each([
    ['Bash(npm run lint:*)', 'allow', 'local', 2],
    ['Bash(npm run lint)', 'allow', 'local', 1],
    ['Bash(npm:*)', 'deny', 'project', 5],
    ['Bash(git push:*)', 'allow', 'user', 0],
    ['Read(src/**)', 'deny', 'local', 1],
    ['Edit(src/**)', 'allow', 'local', 1],
    ['Edit', 'allow', 'user', 2],
    ['Read(.env)', 'allow', 'local', 1],
    ['mcp__tracker', 'allow', 'local', 1],
    ['Bash(rm:*)', 'deny', 'user', 1],
  ] as const)(
    '%s (%s, %s): the replay flips exactly what writing the rule flips (%i)',
    async (rule, behavior, scope, n) => {
      const { replayed, flips, real } = await replayAndWrite(rule, behavior, scope);
      expect(flips.sort()).toEqual(real.sort());
      expect(flips).toHaveLength(n);
      expect(replayed.checked).toBe(CALLS.length);
    },
  );

  it('the expected calls flip for a prefix rule, and the replay names what was recorded', async () => {
    const { replayed } = await replayAndWrite('Bash(npm run lint:*)', 'allow', 'local');
    expect(replayed.flips.map((f) => f.target).sort()).toEqual(['npm run lint', 'npm run lint --fix']);
    const flip = replayed.flips.find((f) => f.target === 'npm run lint')!;
    expect(flip).toMatchObject({
      tool: 'run_command',
      count: 1,
      recorded: { decision: 'ask' },
      before: { decision: 'ask' },
      after: { decision: 'allow', source: 'local', rule: 'Bash(npm run lint:*)' },
    });
  });

  it('follows trust as the engine does: an untrusted project’s local allow rule changes nothing, its deny rule does', async () => {
    trusted = false;
    const allow = await replayAndWrite('Edit(src/**)', 'allow', 'local');
    expect(allow.flips).toEqual([]);
    expect(allow.real).toEqual([]);
    const deny = await replayAndWrite('Bash(npm test)', 'deny', 'local');
    expect(deny.flips).toEqual(['run_command ask->deny']);
    expect(deny.real).toEqual(deny.flips);
    // Trusted, the same allow rule lets the write through.
    trusted = true;
    expect((await replayAndWrite('Edit(src/**)', 'allow', 'local')).flips).toEqual(['write_file ask->allow']);
  });

  it('writes nothing: no settings file, no audit line', async () => {
    const audit = fs.readFileSync(path.join(home, 'audit.jsonl'), 'utf8');
    const replayed = await builder().replayRule({ rule: 'Bash(npm test)', behavior: 'allow', scope: 'local' });
    expect(replayed.flips).toHaveLength(1);
    expect(fs.existsSync(path.join(project, '.gatehouse/settings.local.yaml'))).toBe(false);
    expect(fs.readFileSync(path.join(home, 'audit.jsonl'), 'utf8')).toBe(audit);
  });

  it('refuses a rule that does not parse', async () => {
    await expect(builder().replayRule({ rule: 'Bash(npm', behavior: 'allow', scope: 'local' })).rejects.toThrow(
      /invalid rule/,
    );
  });

  it('lists the distinct recent commands, newest first', async () => {
    const { commands } = await builder().recentCommands({});
    expect(commands[0]).toBe('git push origin main');
    expect(commands).toContain('npm run lint --fix');
    expect(new Set(commands).size).toBe(commands.length);
  });
});

describe('rule builder: which audit lines are one call', () => {
  const line = (over: Partial<AuditRecord>): AuditRecord => ({
    time: '2025-01-01T00:00:00.000Z',
    session: 's',
    tool: 'run_command',
    input: { command: 'npm test' },
    decision: 'ask',
    source: 'defaults',
    rule: null,
    reason: 'r',
    ...over,
  });

  it('an ask just below its answer is the same call; the same call again later is counted', () => {
    const entries = [
      line({ decision: 'allow', source: 'approval', time: 't3' }),
      line({ time: 't2' }),
      line({ decision: 'deny', source: 'approval', time: 't1' }),
      line({ time: 't0' }),
      line({ input: { command: 'ls' }, decision: 'allow', source: 'defaults' }),
    ];
    const calls = replayedCalls(entries);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ count: 2, time: 't3', recorded: { decision: 'allow', source: 'approval' } });
  });

  it('takes only the last N calls', () => {
    const entries = Array.from({ length: 30 }, (_, i) => line({ input: { command: `echo ${i}` }, decision: 'allow' }));
    expect(replayedCalls(entries, 10).map((c) => c.input.command)).toEqual(
      Array.from({ length: 10 }, (_, i) => `echo ${i}`),
    );
  });
});
