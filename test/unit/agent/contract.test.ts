import { describe, expect, it } from 'vitest';
import { AgentEventSchema } from '../../../src/shared/agent-events';
import { ConversationMessageSchema } from '../../../src/shared/conversation';
import type { Decision } from '../../../src/shared/permission';
import type { PermissionRequest } from '../../../src/shared/worker-protocol';
import { permissionBridge } from '../../../src/worker/agent/permission-bridge';

describe('agent event contract', () => {
  it('accepts the runner events and rejects malformed ones', () => {
    const usage = { inputTokens: 1, outputTokens: 2 };
    expect(AgentEventSchema.safeParse({ type: 'text_delta', turn: 1, text: 'hi' }).success).toBe(true);
    expect(
      AgentEventSchema.safeParse({ type: 'done', status: 'max_turns', turns: 3, usage, message: 'stopped' }).success,
    ).toBe(true);
    expect(
      AgentEventSchema.safeParse({
        type: 'tool_call_finished',
        id: 'a',
        ran: true,
        isError: false,
        content: '',
        exitCode: null,
        durationMs: 3,
      }).success,
    ).toBe(true);
    expect(AgentEventSchema.safeParse({ type: 'text_delta', turn: 0, text: 'hi' }).success).toBe(false);
    expect(
      AgentEventSchema.safeParse({ type: 'done', status: 'cancelled', turns: 1, usage, message: '' }).success,
    ).toBe(false);
    expect(AgentEventSchema.safeParse({ type: 'error', code: 'NOPE', message: 'x', turns: 0, usage }).success).toBe(
      false,
    );
    expect(
      AgentEventSchema.safeParse({
        type: 'tool_call_decided',
        id: '',
        allow: true,
        source: 'user',
        reason: '',
        rule: null,
      }).success,
    ).toBe(false);
    expect(AgentEventSchema.safeParse({ type: 'unknown' }).success).toBe(false);
  });

  it('validates stored conversations (a resumed transcript is untrusted input)', () => {
    expect(
      ConversationMessageSchema.safeParse({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't', content: 'x', is_error: false }],
      }).success,
    ).toBe(true);
    expect(ConversationMessageSchema.safeParse({ role: 'system', content: [] }).success).toBe(false);
    expect(
      ConversationMessageSchema.safeParse({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }],
      }).success,
    ).toBe(false);
  });
});

describe('permissionBridge', () => {
  const bridge = (decision: Decision, seen: PermissionRequest[] = []) =>
    permissionBridge(async (request) => {
      seen.push(request);
      return decision;
    });

  it('passes the call and its preview to main and maps allow', async () => {
    const seen: PermissionRequest[] = [];
    const preview = { kind: 'diff' as const, path: 'a', unifiedDiff: '+x' };
    const verdict = await bridge(
      { decision: 'allow', source: 'mode', rule: null, reason: 'reads are allowed' },
      seen,
    )({ id: '1', name: 'write_file', input: { path: 'a' }, preview });
    expect(verdict).toEqual({ allow: true, source: 'mode', reason: 'reads are allowed', rule: null, announced: true }); // main already put the decision into the run's events
    expect(seen).toEqual([{ tool: 'write_file', input: { path: 'a' }, preview }]);
  });

  it("carries main's sandbox for a command; an allow without one runs read-only (a missing word never widens)", async () => {
    const call = { id: '1', name: 'run_command', input: { command: 'ls' } };
    const allow: Decision = { decision: 'allow', source: 'user', rule: 'Bash(ls)', reason: 'r' };
    expect(await bridge({ ...allow, sandbox: 'workspace' })(call)).toMatchObject({ allow: true, sandbox: 'workspace' });
    expect(await bridge(allow)(call)).toMatchObject({ allow: true, sandbox: 'read-only' });
    expect(await bridge(allow)({ id: '2', name: 'read_file', input: { path: 'a' } })).not.toHaveProperty('sandbox');
  });

  it('maps deny with its source and rule, and an unanswered ask to a denial', async () => {
    expect(
      await bridge({ decision: 'deny', source: 'user', rule: 'Bash(git push:*)', reason: 'no pushing' })({
        id: '1',
        name: 'run_command',
        input: {},
      }),
    ).toEqual({
      allow: false,
      source: 'user',
      rule: 'Bash(git push:*)',
      reason: 'no pushing',
      announced: true,
    });
    const ask = await bridge({ decision: 'ask', source: 'mode', rule: null, reason: 'writes ask in default mode' })({
      id: '1',
      name: 'write_file',
      input: {},
    });
    expect(ask).toMatchObject({ allow: false, reason: 'approval required: writes ask in default mode' });
  });
});
