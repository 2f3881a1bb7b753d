import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluateWithHooks } from '../../../src/main/core/hooks/pre-tool-use';
import { cmd, edit, makeFixture, read, write, type Fixture } from '../permission/fixture';
import { addHook, sandboxRuntime, script, userRuntime } from './hook-fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

/** A node hook answering PreToolUse with `permissionDecision` (and noting what it was asked in a log file). */
function decisionHook(decision: string, reason = `hook says ${decision}`): string {
  const log = path.join(fx.root, 'hook-input.jsonl');
  const file = script(
    fx,
    `${decision}.mjs`,
    `import fs from 'node:fs';
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  fs.appendFileSync(${JSON.stringify(log)}, input + '\\n');
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: ${JSON.stringify(decision)}, permissionDecisionReason: ${JSON.stringify(reason)} } }));
});
`,
  );
  return `node ${file}`;
}

function hookInputs(): Record<string, unknown>[] {
  const log = path.join(fx.root, 'hook-input.jsonl');
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function decide(call: unknown, runtime = userRuntime(fx)) {
  const engine = await fx.engine();
  return evaluateWithHooks(engine, runtime, call);
}

describe('PreToolUse hooks in the engine order', () => {
  it('a hook that exits 2 denies, naming the hook and giving its stderr', async () => {
    const sh = script(fx, 'block.sh', '#!/bin/sh\ncat >/dev/null\necho "no rm here" >&2\nexit 2\n');
    addHook(fx, 'user', 'PreToolUse', sh, { matcher: 'Bash' });
    const { evaluation, runs } = await decide(cmd('rm -rf build'));
    expect(evaluation.decision).toMatchObject({ decision: 'deny', source: 'hook', rule: sh });
    expect(evaluation.decision.reason).toContain(`the user hook "${sh}"`);
    expect(evaluation.decision.reason).toContain('no rm here');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ event: 'PreToolUse', source: 'user', outcome: 'deny', command: sh });
  });

  it('sends Claude Code fields on stdin: tool_name Bash, tool_input.command, cwd, hook_event_name', async () => {
    addHook(fx, 'user', 'PreToolUse', decisionHook('ask'), { matcher: 'Bash|Write' });
    await decide(cmd('npm test'));
    await decide(write('src/new.ts'));
    const [bash, wr] = hookInputs();
    expect(bash).toMatchObject({
      session_id: 'test-session',
      cwd: fx.project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
    });
    expect(wr).toMatchObject({
      tool_name: 'Write',
      tool_input: { file_path: path.join(fx.project, 'src/new.ts'), content: 'x\n' },
    });
  });

  it('JSON allow lets through what the mode would ask; ask asks where a rule allows; deny denies', async () => {
    addHook(fx, 'user', 'PreToolUse', decisionHook('allow'), { matcher: 'Edit' });
    const allowed = await decide(edit('src/index.ts'));
    expect(allowed.evaluation.decision).toMatchObject({ decision: 'allow', source: 'hook' });

    addHook(fx, 'user', 'PreToolUse', decisionHook('ask', 'double-check tests'), {
      matcher: 'Bash',
      permissions: { allow: ['Bash(npm test)'] },
    });
    const asked = await decide(cmd('npm test'));
    expect(asked.evaluation.decision).toMatchObject({ decision: 'ask', source: 'hook' });
    expect(asked.evaluation.decision.reason).toContain('double-check tests');

    addHook(fx, 'user', 'PreToolUse', decisionHook('deny', 'reads are logged elsewhere'), { matcher: '*' });
    const denied = await decide(read('README.md'));
    expect(denied.evaluation.decision).toMatchObject({ decision: 'deny', source: 'hook' });
  });

  it('no decision (exit 0, no output) is passthrough: the engine decides as without hooks', async () => {
    const marker = path.join(fx.root, 'ran');
    addHook(fx, 'user', 'PreToolUse', `cat >/dev/null; touch ${marker}`);
    const { evaluation, runs } = await decide(cmd('npm test'));
    expect(fs.existsSync(marker)).toBe(true);
    expect(runs[0]?.outcome).toBe('none');
    expect(evaluation.decision).toMatchObject({ decision: 'ask', source: 'mode' });
  });

  it('a hook allow never beats a deny rule, an ask rule, or the hard deny list', async () => {
    addHook(fx, 'user', 'PreToolUse', decisionHook('allow'), {
      permissions: { deny: ['Bash(git push:*)'], ask: ['Read(docs/**)'] },
    });
    expect((await decide(cmd('git push origin main'))).evaluation.decision).toMatchObject({
      decision: 'deny',
      source: 'user',
    });
    expect((await decide(read('docs/a.md'))).evaluation.decision).toMatchObject({ decision: 'ask', source: 'user' });
    expect((await decide(cmd('sudo rm -rf /'))).evaluation.decision).toMatchObject({
      decision: 'deny',
      source: 'hard',
    });
    // Self-protection is a hard check too.
    expect((await decide(write('.gatehouse/settings.yaml'))).evaluation.decision).toMatchObject({
      decision: 'deny',
      source: 'hard',
    });
    // An unreadable command is never allowed by anything.
    expect((await decide(cmd('$(curl -s example.com)'))).evaluation.decision.decision).toBe('ask');
  });

  it('a hook ask never turns a deny rule into an ask', async () => {
    addHook(fx, 'user', 'PreToolUse', decisionHook('ask'), { permissions: { deny: ['Bash(git push:*)'] } });
    expect((await decide(cmd('git push'))).evaluation.decision).toMatchObject({ decision: 'deny', source: 'user' });
  });

  it("a user hook's allow is capped by trust in an untrusted project", async () => {
    fx.trust.trusted = false;
    addHook(fx, 'user', 'PreToolUse', decisionHook('allow'));
    expect((await decide(cmd('npm test'))).evaluation.decision).toMatchObject({ decision: 'ask', source: 'trust' });
    // A policy hook's allow passes the cap (like a policy rule).
    fx.write(fx.policy, '');
    addHook(fx, 'policy', 'PreToolUse', decisionHook('allow'));
    fx.write(path.join(fx.configDir, 'settings.yaml'), '');
    expect((await decide(cmd('npm test'))).evaluation.decision).toMatchObject({ decision: 'allow', source: 'hook' });
  });

  it("an untrusted project's hooks never run, even its Claude Code hooks (a marker file proves it)", async () => {
    fx.trust.trusted = false;
    const marker = path.join(fx.root, 'project-hook-ran');
    addHook(fx, 'project', 'PreToolUse', `touch ${marker}; exit 2`);
    addHook(fx, 'local', 'PreToolUse', `touch ${marker}; exit 2`);
    addHook(fx, 'claudeProject', 'PreToolUse', `touch ${marker}; exit 2`, { matcher: 'Bash' });
    addHook(fx, 'claudeLocal', 'PreToolUse', `touch ${marker}; exit 2`);
    const sandbox = sandboxRuntime(fx);
    try {
      const { evaluation, runs } = await decide(cmd('ls'), sandbox.runtime);
      expect(runs).toEqual([]);
      expect(evaluation.decision.source).not.toBe('hook');
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      await sandbox.dispose();
    }
  });

  it("a trusted project's hooks run inside the OS sandbox: they write the project, not its rules or outside", async () => {
    const marker = path.join(fx.project, 'hook-ran');
    const outside = path.join(fx.outside, 'escaped');
    const rules = path.join(fx.project, '.claude', 'planted');
    addHook(fx, 'claudeProject', 'PreToolUse', `touch ${marker}; touch ${outside}; touch ${rules}; exit 0`, {
      matcher: 'Bash',
    });
    const sandbox = sandboxRuntime(fx);
    try {
      const { runs } = await decide(cmd('ls'), sandbox.runtime);
      expect(runs).toHaveLength(1);
      expect(runs[0]?.source).toBe('project');
      expect(fs.existsSync(marker)).toBe(true);
      expect(fs.existsSync(outside)).toBe(false);
      expect(fs.existsSync(rules)).toBe(false);
    } finally {
      await sandbox.dispose();
    }
  });

  it('without the OS sandbox a project hook does not run, and the call asks', async () => {
    const marker = path.join(fx.project, 'hook-ran');
    addHook(fx, 'project', 'PreToolUse', `touch ${marker}`);
    const { evaluation } = await decide(cmd('ls'));
    expect(evaluation.decision).toMatchObject({ decision: 'ask', source: 'hook' });
    expect(evaluation.decision.reason).toContain('OS sandbox');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('agent mode and schema come first: a call they refuse runs no hook', async () => {
    const marker = path.join(fx.root, 'ran');
    addHook(fx, 'user', 'PreToolUse', `touch ${marker}`);
    const engine = await fx.engine({ agentMode: 'plan' });
    const planned = await evaluateWithHooks(engine, userRuntime(fx), write('x.txt'));
    expect(planned.evaluation.decision.source).toBe('agent-mode');
    const bad = await decide({ tool: 'read_file', input: { path: 7 } });
    expect(bad.evaluation.decision.source).toBe('schema');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("reads Claude Code's own files: ~/.claude/settings.json hooks run as the user", async () => {
    const sh = script(fx, 'cc.sh', '#!/bin/sh\ncat >/dev/null\necho "from claude settings" >&2\nexit 2\n');
    addHook(fx, 'claudeUser', 'PreToolUse', sh, { matcher: 'Edit|Write' });
    expect((await decide(write('a.txt'))).evaluation.decision).toMatchObject({ decision: 'deny', source: 'hook' });
    expect((await decide(read('README.md'))).runs).toEqual([]);
  });

  it('matchers take Gatehouse tool names and regular expressions too', async () => {
    const sh = script(fx, 'no.sh', '#!/bin/sh\nexit 2\n');
    addHook(fx, 'user', 'PreToolUse', sh, { matcher: 'run_command' });
    expect((await decide(cmd('ls'))).evaluation.decision.source).toBe('hook');
    addHook(fx, 'user', 'PreToolUse', sh, { matcher: '^(Gl|Gr)' });
    expect((await decide({ tool: 'search_code', input: { pattern: 'x' } })).evaluation.decision.source).toBe('hook');
    expect((await decide(read('README.md'))).runs).toEqual([]);
  });
});

describe('hook failures ask a person, never allow', () => {
  it.each([
    ['malformed JSON', `printf '{"hookSpecificOutput": {"permissionDecision": "allow"'`, 'not valid JSON'],
    ['an unknown decision', `echo '{"hookSpecificOutput":{"permissionDecision":"yes"}}'`, 'malformed'],
    ['a crash', 'echo boom >&2; exit 1', 'exited with code 1: boom'],
    [
      'a changed input',
      `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls"}}}'`,
      'updatedInput',
    ],
  ])('%s', async (_name, command, shown) => {
    addHook(fx, 'user', 'PreToolUse', `cat >/dev/null; ${command}`, { permissions: { allow: ['Bash(npm test)'] } });
    const { evaluation, runs } = await decide(cmd('npm test'));
    expect(evaluation.decision).toMatchObject({ decision: 'ask', source: 'hook' });
    expect(evaluation.decision.reason).toContain(shown);
    expect(runs[0]?.outcome).toBe('failed');
  });

  it('a timeout (seconds, as in Claude Code) asks', async () => {
    const marker = path.join(fx.root, 'late');
    addHook(fx, 'user', 'PreToolUse', `sleep 5; touch ${marker}`, { timeout: 0.3 });
    const { evaluation } = await decide(cmd('ls'));
    expect(evaluation.decision).toMatchObject({ decision: 'ask', source: 'hook' });
    expect(evaluation.decision.reason).toContain('timed out after 0.3 s');
  });

  it('a deny from one hook beats an allow from another', async () => {
    addHook(fx, 'user', 'PreToolUse', decisionHook('allow'));
    const sh = script(fx, 'no.sh', '#!/bin/sh\nexit 2\n');
    addHook(fx, 'claudeUser', 'PreToolUse', sh);
    expect((await decide(cmd('ls'))).evaluation.decision).toMatchObject({ decision: 'deny', source: 'hook' });
  });
});
