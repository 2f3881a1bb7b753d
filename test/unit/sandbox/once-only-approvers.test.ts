import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ttyApprover } from '../../../src/main/shells/cli/tty-approver';
import type { ApprovalRequest } from '../../../src/main/services/agent-runs/types';
import { toApprovalEvent } from '../../../src/main/services/app/chat-approval';
import { ApprovalRequestEventSchema } from '../../../src/shared/chat-contract';
import { RpcEventSchema } from '../../../src/shared/rpc-protocol';

// The shells' view of a command to run outside the sandbox: only "allow once" or "deny" is offered.

const request: ApprovalRequest = {
  requestId: 'q1',
  runId: 'r1',
  tool: 'run_command',
  input: { command: 'make deploy', unsandboxed: true },
  reason: 'runs outside the OS sandbox',
  source: 'hard',
  suggestedRules: [],
  onceOnly: true,
};

async function answerOnTty(typed: string, req: ApprovalRequest = request): Promise<{ kind: string; shown: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  let answered = false;
  output.on('data', (c: Buffer) => {
    shown += c.toString('utf8');
    // The person types once asked.
    if (!answered && /Allow( once)?\? \[y\]es/.test(shown)) {
      answered = true;
      input.write(typed);
    }
  });
  const pending = ttyApprover(input, output)(req, new AbortController().signal);
  const answer = await pending;
  return { kind: answer.kind, shown };
}

describe('once-only approvals in the shells', () => {
  it('the terminal offers only once/No with the warning; "session" or "always" typed there is a No', async () => {
    const yes = await answerOnTty('y\n');
    expect(yes.kind).toBe('once');
    expect(yes.shown).toContain(
      'Runs outside the sandbox: it can write anywhere, read your secrets and use the network.',
    );
    expect(yes.shown).toContain('Allow once? [y]es once, [N]o');
    expect(yes.shown).not.toContain('[s]ession');
    expect((await answerOnTty('a\n')).kind).toBe('deny');
    expect((await answerOnTty('s\n')).kind).toBe('deny');
    expect((await answerOnTty('\n')).kind).toBe('deny');
  });

  it('an ordinary request still offers session and always', async () => {
    const plain = await answerOnTty('s\n', { ...request, onceOnly: undefined, input: { command: 'ls' } });
    expect(plain.kind).toBe('session');
    expect(plain.shown).not.toContain('Runs outside the sandbox');
  });

  it('the dialog event and the RPC event carry onceOnly (and validate)', () => {
    const event = toApprovalEvent(request);
    expect(ApprovalRequestEventSchema.parse(event)).toMatchObject({
      onceOnly: true,
      target: 'make deploy',
      suggestedRules: [],
    });
    expect(toApprovalEvent({ ...request, onceOnly: undefined })).not.toHaveProperty('onceOnly');
    const rpc = RpcEventSchema.parse({ type: 'approval_request', promptId: 'p1', ...request });
    expect(rpc).toMatchObject({ onceOnly: true });
  });
});
