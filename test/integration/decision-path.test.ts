import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBackgroundAsk } from '../../src/main/core/agents/background-ask';
import { AutoModeState, type AutoCall } from '../../src/main/core/auto/auto-mode';
import type { ClassifierVerdict } from '../../src/main/core/auto/classifier';
import type { ApprovalRequest } from '../../src/shared/approval-contract';
import { decideCall, type GateRun } from '../../src/main/core/gate/decision-path';
import { HookRuntime } from '../../src/main/core/hooks/hook-runtime';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';
import { type PermissionEngine } from '../../src/main/core/permission/engine';
import type { ApprovalAnswer, Approver } from '../../src/main/core/permission/approvals';
import type { PermissionMode } from '../../src/shared/permission';
import type { AgentLabel } from '../../src/shared/skills-contract';
import type { PermissionRequest, SandboxStatus } from '../../src/shared/worker-protocol';
import { removeAfterWrites } from '../support/remove-after-writes';

// The decision path's contract (docs/permission-model.md, "The order of evaluation"): PreToolUse hooks, the engine,
// the sandbox cap, auto mode, the background policy, and the person last. Each case puts a stage against the one
// after it, with the real engine reading real settings files and real hook processes in a temp folder; only the
// classifier's model call is played by a function (auto-mode-gate.test.ts asks a model over HTTP).

let root: string;
let project: string;
let configDir: string;
let home: string;
const engines: PermissionEngine[] = [];

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-decision-path-')));
  project = path.join(root, 'project');
  configDir = path.join(root, 'config');
  home = path.join(root, 'home');
  for (const d of [project, configDir, home]) fs.mkdirSync(d);
  fs.writeFileSync(path.join(project, 'notes.txt'), 'TODO\n');
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.flushAudit();
  await removeAfterWrites(root);
});

/** The person's own settings.yaml (rules, hooks, subagents: what each case needs). */
function userSettings(yaml: string): void {
  fs.writeFileSync(path.join(configDir, 'settings.yaml'), yaml);
}

/** A PreToolUse hook for commands, as the user's settings would hold it. */
function commandHook(body: string): string {
  const file = path.join(root, 'hook.sh');
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return `hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ${file}\n`;
}

async function engineIn(mode: PermissionMode): Promise<PermissionEngine> {
  const engine = await createPermissionEngine({
    projectRoot: project,
    configDir,
    env: { HOME: home },
    trust: fixedTrust(true),
    mode,
    sessionId: 'path',
  });
  engines.push(engine);
  return engine;
}

const working: SandboxStatus = { enabled: true, available: true, mechanism: 'bubblewrap' };
const missing: SandboxStatus = { enabled: true, available: false, reason: 'bubblewrap is not installed' };

function run(extra: Partial<GateRun> = {}): GateRun {
  return { runId: 'r1', agentMode: 'do', signal: new AbortController().signal, sandbox: working, ...extra };
}

const command = (text: string, agent?: AgentLabel): PermissionRequest => ({
  tool: 'run_command',
  input: { command: text },
  runId: 'r1',
  callId: 'c1',
  ...(agent ? { agent } : {}),
});
const background: AgentLabel = { id: 'helper-1', name: 'helper', background: true, agentMode: 'do' };
const live = (): AbortSignal => new AbortController().signal;

/** A person who answers every ask the same way, and what they were shown. */
function person(answer: ApprovalAnswer): { approve: Approver; asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return { asked, approve: async (request) => (asked.push(request), answer) };
}

/** Auto mode with a classifier that answers `decision` to every call, and the calls it was shown. */
function classifier(decision: 'allow' | 'block'): { auto: AutoModeState; seen: AutoCall[] } {
  const seen: AutoCall[] = [];
  const verdict: ClassifierVerdict = {
    decision,
    reason: decision === 'allow' ? 'installing dependencies was asked for' : 'nobody asked for this',
    model: 'test-classifier',
    inputTokens: 10,
    outputTokens: 5,
    latencyMs: 1,
  };
  const auto = new AutoModeState({ classify: async (call) => (seen.push(call), verdict), onFallback: () => {} });
  return { auto, seen };
}

async function auditLines(engine: PermissionEngine): Promise<Array<Record<string, unknown>>> {
  await engine.flushAudit();
  return fs
    .readFileSync(path.join(configDir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the decision path: hooks, engine, sandbox cap, auto mode, background policy, the person', () => {
  it('the hooks come before the rules: a PreToolUse deny beats an allow rule, and nobody is asked', async () => {
    userSettings(`permissions:\n  allow: ['Bash(npm test)']\n`);
    const alone = await decideCall(await engineIn('default'), null, run(), command('npm test'), live());
    expect(alone.final).toMatchObject({ decision: 'allow', source: 'user', rule: 'Bash(npm test)' });

    userSettings(`permissions:\n  allow: ['Bash(npm test)']\n${commandHook('echo "no tests on Fridays" >&2\nexit 2')}`);
    const you = person({ kind: 'once' });
    const hooks = new HookRuntime({
      projectRoot: project,
      env: { PATH: process.env.PATH, HOME: home },
      sessionId: 'p',
    });
    const out = await decideCall(await engineIn('default'), you.approve, run({ hooks }), command('npm test'), live());
    expect(out.final).toMatchObject({ decision: 'deny', source: 'hook', reason: expect.stringContaining('Fridays') });
    expect(out.hooks).toEqual([expect.objectContaining({ event: 'PreToolUse', outcome: 'deny' })]);
    expect(you.asked).toEqual([]);
  });

  it("the engine judges the hooks' allow as an allow rule: a deny rule still denies it", async () => {
    const allowing = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`;
    userSettings(`permissions:\n  deny: ['Bash(git push:*)']\n${commandHook(allowing)}`);
    const hooks = new HookRuntime({
      projectRoot: project,
      env: { PATH: process.env.PATH, HOME: home },
      sessionId: 'p',
    });
    const engine = await engineIn('default');
    const pushed = await decideCall(engine, null, run({ hooks }), command('git push origin main'), live());
    expect(pushed.final).toMatchObject({ decision: 'deny', source: 'user', rule: 'Bash(git push:*)' });
    expect(pushed.hooks).toEqual([expect.objectContaining({ outcome: 'allow' })]);
    // Where no rule says otherwise the hook's allow is the engine's allow, and the command runs project writable.
    const installed = await decideCall(engine, null, run({ hooks }), command('npm install'), live());
    expect(installed.final).toMatchObject({ decision: 'allow', source: 'hook', sandbox: 'workspace' });
  });

  it('the sandbox cap follows the engine: an allowed command asks without a sandbox, unseen by the classifier', async () => {
    userSettings(`permissions:\n  allow: ['Bash(npm test)']\n`);
    const engine = await engineIn('auto');
    const { auto, seen } = classifier('allow');
    const you = person({ kind: 'session' });
    const out = await decideCall(engine, you.approve, run({ sandbox: missing, auto }), command('npm test'), live());
    expect(out.engine).toMatchObject({
      decision: 'ask',
      source: 'hard',
      reason: expect.stringContaining('unavailable'),
    });
    expect(seen).toEqual([]);
    expect(you.asked).toEqual([expect.objectContaining({ source: 'hard', suggestedRules: [], onceOnly: true })]);
    // The person's "session" answer holds for this call only: nothing is remembered without a sandbox.
    expect(out.final).toMatchObject({ decision: 'allow', source: 'approval', reason: expect.stringContaining('once') });
    const again = await decideCall(engine, you.approve, run({ sandbox: missing, auto }), command('npm test'), live());
    expect(again.engine.source).toBe('hard');
    expect(you.asked).toHaveLength(2);
    // A file tool is not a command: the missing sandbox caps nothing there.
    const read = { tool: 'read_file', input: { path: 'notes.txt' }, runId: 'r1', callId: 'c2' };
    const readOut = await decideCall(engine, you.approve, run({ sandbox: missing, auto }), read, live());
    expect(readOut.final).toMatchObject({ decision: 'allow', source: 'mode' });
  });

  it('auto mode answers only the asks the engine marked classifiable, and before the person', async () => {
    userSettings(`permissions:\n  ask: ['Bash(git push:*)']\n`);
    const engine = await engineIn('auto');
    const { auto, seen } = classifier('allow');
    const you = person({ kind: 'once' });
    const installed = await decideCall(engine, you.approve, run({ auto }), command('npm install'), live());
    expect(installed.engine).toMatchObject({ decision: 'ask', source: 'mode', classifiable: true });
    expect(installed.final).toMatchObject({ decision: 'allow', source: 'auto', sandbox: 'workspace' });
    expect(installed.classifier).toMatchObject({ decision: 'allow' });
    expect(seen).toEqual([expect.objectContaining({ tool: 'run_command', input: { command: 'npm install' } })]);
    expect(you.asked).toEqual([]);
    // An ask rule's ask is never the classifier's: it goes straight to the person.
    const pushed = await decideCall(engine, you.approve, run({ auto }), command('git push origin main'), live());
    expect(seen).toHaveLength(1);
    expect(you.asked).toEqual([
      expect.objectContaining({ source: 'user', reason: expect.stringContaining('ask rule') }),
    ]);
    expect(pushed.final).toMatchObject({ decision: 'allow', source: 'approval' });
  });

  it("a classifier's block goes on to the person with its reason; where nobody can answer it is a deny", async () => {
    const engine = await engineIn('auto');
    const { auto } = classifier('block');
    const you = person({ kind: 'deny', note: 'not now' });
    const out = await decideCall(engine, you.approve, run({ auto }), command('npm install'), live());
    expect(you.asked).toEqual([expect.objectContaining({ reason: expect.stringContaining('nobody asked for this') })]);
    expect(out.final).toMatchObject({ decision: 'deny', source: 'approval', reason: 'denied by you: not now' });
    const alone = await decideCall(engine, null, run({ auto }), command('npm install'), live());
    expect(alone.final).toMatchObject({
      decision: 'deny',
      source: 'auto',
      reason: expect.stringContaining('nobody can'),
    });
  });

  it("a background sub-agent's ask follows subagents.backgroundAsk, after the sandbox cap, never a person", async () => {
    userSettings(`subagents:\n  backgroundAsk: continue\npermissions:\n  ask: ['Bash(git push:*)']\n`);
    const { value: backgroundAsk } = await readBackgroundAsk(configDir);
    expect(backgroundAsk).toBe('continue');
    const engine = await engineIn('default');
    const you = person({ kind: 'once' });
    const installed = await decideCall(
      engine,
      you.approve,
      run({ backgroundAsk }),
      command('npm install', background),
      live(),
    );
    expect(installed.final).toMatchObject({
      decision: 'allow',
      source: 'mode',
      sandbox: 'workspace',
      reason: expect.stringContaining('backgroundAsk: continue'),
    });
    // `continue` runs only what the mode asked about: an ask rule's ask is denied; so is a command without a sandbox.
    const pushed = await decideCall(
      engine,
      you.approve,
      run({ backgroundAsk }),
      command('git push', background),
      live(),
    );
    expect(pushed.final).toMatchObject({ decision: 'deny', reason: expect.stringContaining('nobody watches') });
    const unboxed = run({ backgroundAsk, sandbox: missing });
    const capped = await decideCall(engine, you.approve, unboxed, command('npm install', background), live());
    expect(capped.final).toMatchObject({
      decision: 'deny',
      source: 'hard',
      reason: expect.stringContaining('unavailable'),
    });
    expect(you.asked).toEqual([]);
  });

  it("auto mode comes before the background policy: the classifier answers a background sub-agent's ask first", async () => {
    const engine = await engineIn('auto');
    const { auto, seen } = classifier('allow');
    const out = await decideCall(
      engine,
      null,
      run({ auto, backgroundAsk: 'deny' }),
      command('npm install', background),
      live(),
    );
    expect(seen).toHaveLength(1);
    expect(out.final).toMatchObject({ decision: 'allow', source: 'auto' });
  });

  it('the person comes last: their answer is applied by the engine, audited after the ask it answers', async () => {
    const engine = await engineIn('default');
    const you = person({ kind: 'session' });
    const first = await decideCall(engine, you.approve, run(), command('npm install'), live());
    expect(you.asked).toEqual([expect.objectContaining({ source: 'mode', suggestedRules: ['Bash(npm install)'] })]);
    expect(first.final).toMatchObject({ decision: 'allow', source: 'approval', rule: 'Bash(npm install)' });
    expect(first.answer).toEqual({ choice: 'session', rules: ['Bash(npm install)'] });
    // The session rule the answer added decides the next such call: nobody is asked again.
    const second = await decideCall(engine, you.approve, run(), command('npm install'), live());
    expect(second.final).toMatchObject({ decision: 'allow', source: 'session', sandbox: 'workspace' });
    expect(you.asked).toHaveLength(1);
    expect((await auditLines(engine)).map((l) => [l.decision, l.source])).toEqual([
      ['ask', 'mode'],
      ['allow', 'approval'],
      ['allow', 'session'],
    ]);
    // Nobody to ask: the ask is denied, "approval required".
    const alone = await decideCall(engine, null, run(), command('npm ci'), live());
    expect(alone.final).toMatchObject({
      decision: 'deny',
      source: 'mode',
      reason: expect.stringMatching(/^approval required/),
    });
  });
});
