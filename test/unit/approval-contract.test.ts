import { describe, expect, it } from 'vitest';
import { ApprovalChoiceSchema, type ApprovalRequest } from '../../src/shared/approval-contract';
import { ApprovalRequestEventSchema } from '../../src/shared/chat-contract';
import { RpcCommandSchema, RpcEventSchema } from '../../src/shared/rpc-protocol';
import { callTarget } from '../../src/shared/tools';
import { toApprovalEvent } from '../../src/main/services/app/chat-approval';
import { describeCall } from '../../src/main/shells/cli/text-renderer';

const asked: ApprovalRequest = {
  requestId: 'r1',
  runId: 'run1',
  callId: 'toolu_1',
  tool: 'write_file',
  input: { path: 'src/a.ts', content: 'export const a = 1;\n' },
  preview: { kind: 'diff', path: 'src/a.ts', unifiedDiff: '+export const a = 1;' },
  position: { index: 2, count: 3 },
  reason: 'writes ask in default mode',
  source: 'mode',
  suggestedRules: ['Edit(src/**)'],
};

describe('one approval contract for every shell', () => {
  it("an RPC client sees every field the approver gets, the call's place in its turn included", () => {
    const event = RpcEventSchema.parse({ type: 'approval_request', promptId: 'p1', ...asked });
    expect(event).toEqual({ type: 'approval_request', promptId: 'p1', ...asked });
  });

  it("the dialog's event names the call by its target and never carries the raw input", () => {
    const event = ApprovalRequestEventSchema.parse({ ...toApprovalEvent(asked), input: { apiKey: 'sk-secret' } });
    expect(event).not.toHaveProperty('input');
    expect(event).toMatchObject({ target: 'src/a.ts', position: { index: 2, count: 3 }, preview: asked.preview });
  });

  it('the same four answers are accepted by the RPC command and nothing else', () => {
    for (const decision of ApprovalChoiceSchema.options) {
      expect(RpcCommandSchema.safeParse({ type: 'approve', requestId: 'r1', decision }).success).toBe(true);
    }
    expect(RpcCommandSchema.safeParse({ type: 'approve', requestId: 'r1', decision: 'forever' }).success).toBe(false);
  });
});

describe('callTarget', () => {
  it('names a call by its path, command or pattern', () => {
    expect(callTarget({ path: 'src', pattern: 'TODO' })).toBe('src');
    expect(callTarget({ command: 'npm test' })).toBe('npm test');
    expect(callTarget({ pattern: '**/*.ts' })).toBe('**/*.ts');
  });

  it('is empty for input that names none, or names it with something other than text', () => {
    expect(callTarget({ path: 42, command: ['rm', '-rf'] })).toBe('');
    expect(callTarget(null)).toBe('');
    expect(callTarget('rm -rf /')).toBe('');
  });

  it('the terminal falls back to the JSON input', () => {
    expect(describeCall('mystery', { depth: 3 })).toBe('mystery {"depth":3}');
    expect(describeCall('run_command', { command: 'npm test' })).toBe('run_command npm test');
  });
});
