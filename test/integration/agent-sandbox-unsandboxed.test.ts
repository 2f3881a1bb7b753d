import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { RpcClient, runGatehouse, sentToolResults, withTrustedProject } from './agent-helpers';
import type { Sandbox } from './agent-helpers';
import { createSession } from '../../src/main/shells/sdk';
import type { ApprovalDecision, ApprovalRequest } from '../../src/main/shells/sdk';
import { findOnPath } from '../../src/sandbox/find-binary';

// An explicit one-off unsandboxed run through the whole path (SDK / `gatehouse run` -> main -> worker -> pty): the
// model asks with `unsandboxed: true`, a person allows that exact command once, and only then it runs unconfined.

const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const bwrap = process.platform === 'linux' ? await findOnPath('bwrap') : null;
if (bwrap === null) console.warn('agent-sandbox-unsandboxed tests skipped: bubblewrap (bwrap) is not installed');

let fake: FakeAnthropic;
let box: Sandbox;
let outside: string;
withTrustedProject('gatehouse-unsandboxed-', (f, b, o) => {
  fake = f;
  box = b;
  outside = o;
});

const pyWrite = (file: string): string => `${PYTHON} -c "open('${file}','w').write('escaped')"`;

/** The model runs `input` once through the SDK; `approve` answers; returns the tool result the model got back. */
async function viaSdk(
  input: Record<string, unknown>,
  approve: (r: ApprovalRequest) => ApprovalDecision,
  mode: 'default' | 'bypassPermissions' = 'default',
) {
  fake.enqueue(reply(toolUse('toolu_u', 'run_command', input)), reply(text('Done.')));
  const session = await createSession({ project: box.project, configDir: box.configDir, env: box.env, mode, approve });
  try {
    expect((await session.prompt('do it')).status).toBe('completed');
  } finally {
    await session.close();
  }
  const [result] = sentToolResults(fake.requests[1]!.body);
  return { result: result!, content: String(result!.content) };
}

describe.skipIf(bwrap === null)('run_command with unsandboxed: true (real bubblewrap, real worker)', () => {
  it('sandboxed, a write outside is blocked and the model learns the explicit way out', async () => {
    const target = path.join(outside, 'escaped.txt');
    const { result, content } = await viaSdk({ command: pyWrite(target) }, () => 'once');
    expect(fs.existsSync(target)).toBe(false);
    expect(result.is_error).toBe(true);
    expect(content).toContain(`blocked by sandbox: write outside the project: ${target}`);
    expect(content).toContain('"unsandboxed": true');
    expect(content).toContain('a person must approve that exact command');
  });

  it('approved once: the same write really runs outside the sandbox (environment still scrubbed)', async () => {
    const target = path.join(outside, 'escaped.txt');
    const asked: ApprovalRequest[] = [];
    const { result, content } = await viaSdk(
      { command: `${pyWrite(target)}; env`, unsandboxed: true },
      (r) => (asked.push(r), 'once'),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ onceOnly: true, suggestedRules: [] });
    expect(asked[0]!.reason).toContain('runs outside the OS sandbox');
    expect(result.is_error).toBe(false);
    expect(fs.readFileSync(target, 'utf8')).toBe('escaped');
    expect(content).not.toContain('GATEHOUSE_SANDBOX=1');
    expect(content).not.toContain(fake.apiKey);
  });

  it('"always" counts once: it runs, and no rule is written', async () => {
    const target = path.join(outside, 'once.txt');
    const { result } = await viaSdk({ command: pyWrite(target), unsandboxed: true }, () => 'always');
    expect(result.is_error).toBe(false);
    expect(fs.existsSync(target)).toBe(true);
    expect(fs.existsSync(path.join(box.project, '.gatehouse', 'settings.local.yaml'))).toBe(false);
  });

  it('denied: not run, an error result naming the denial', async () => {
    const target = path.join(outside, 'escaped.txt');
    const { result, content } = await viaSdk({ command: pyWrite(target), unsandboxed: true }, () => ({
      kind: 'deny',
      note: 'find another way',
    }));
    expect(result.is_error).toBe(true);
    expect(content).toContain('denied by you: find another way');
    expect(fs.existsSync(target)).toBe(false);
  });

  it('bypassPermissions: denied without asking, not run', async () => {
    const target = path.join(outside, 'escaped.txt');
    const asked: ApprovalRequest[] = [];
    const { result, content } = await viaSdk(
      { command: pyWrite(target), unsandboxed: true },
      (r) => (asked.push(r), 'once'),
      'bypassPermissions',
    );
    expect(asked).toHaveLength(0);
    expect(result.is_error).toBe(true);
    expect(content).toContain('unavailable in bypass mode');
    expect(fs.existsSync(target)).toBe(false);
  });

  it('over RPC: the request says onceOnly; an "always" answer runs it once and writes no rule', async () => {
    const target = path.join(outside, 'rpc.txt');
    fake.enqueue(
      reply(toolUse('toolu_r', 'run_command', { command: pyWrite(target), unsandboxed: true })),
      reply(text('Done.')),
    );
    const c = new RpcClient(['--project', box.project], box.env, box.home);
    try {
      await c.waitFor((e) => e.type === 'ready');
      c.send({ type: 'prompt', id: 'p1', text: 'do it' });
      const ask = await c.waitFor((e) => e.type === 'approval_request');
      expect(ask).toMatchObject({ tool: 'run_command', onceOnly: true, suggestedRules: [] });
      c.send({ type: 'approve', requestId: ask.requestId, decision: 'always' });
      const decision = await c.waitFor(
        (e) => e.type === 'agent' && (e.event as { type: string }).type === 'tool_call_decided',
      );
      // The person said "always"; it counted once: no rule added.
      expect(decision.event).toMatchObject({
        id: 'toolu_r',
        allow: true,
        source: 'approval',
        rule: null,
        answer: { choice: 'always' },
      });
      expect(decision).not.toHaveProperty('event.answer.rules');
      await c.waitFor((e) => e.type === 'result');
    } finally {
      await c.close();
    }
    expect(fs.readFileSync(target, 'utf8')).toBe('escaped');
    expect(fs.existsSync(path.join(box.project, '.gatehouse', 'settings.local.yaml'))).toBe(false);
  });

  it('print mode (no person), even with an allow-all flag: denied "approval required", not run', async () => {
    const target = path.join(outside, 'escaped.txt');
    fake.enqueue(
      reply(toolUse('toolu_p', 'run_command', { command: pyWrite(target), unsandboxed: true })),
      reply(text('Done.')),
    );
    const r = await runGatehouse(
      ['run', '--project', box.project, '--mode', 'acceptEdits', '--allow', 'Bash', 'do it'],
      box.env,
      box.home,
    );
    expect(r.code, r.stderr).toBe(0);
    const [result] = sentToolResults(fake.requests[1]!.body);
    expect(result!.is_error).toBe(true);
    expect(String(result!.content)).toContain('approval required: runs outside the OS sandbox');
    expect(fs.existsSync(target)).toBe(false);
  });
});
