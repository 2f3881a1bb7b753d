import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/api';
import type { RulesList } from '../../src/shared/rules-contract';
import { reply, text, toolUse } from '../support/fake-anthropic';
import { useAppChat } from './agent-helpers';

// The rules editor shows the chat session's own "allow for this session" rules, and deleting one there takes
// effect on the running session's next call: through AppCore's handlers, the real worker and the real engine.

const app = useAppChat('gatehouse-app-session-rules-', 'sk-session-rules');
const call = app.call;
const rules = async (): Promise<RulesList> => (await call('listRules')) as RulesList;
const sessionRules = async (): Promise<RulesList['rules']> =>
  (await rules()).rules.filter((r) => r.scope === 'session');

async function nextApproval(seen: number): Promise<Extract<ApiEvent, { type: 'approvalRequest' }>> {
  await expect
    .poll(() => app.events.filter((e) => e.type === 'approvalRequest').length, { timeout: 15_000 })
    .toBeGreaterThan(seen);
  return app.events.filter((e): e is Extract<ApiEvent, { type: 'approvalRequest' }> => e.type === 'approvalRequest')[
    seen
  ]!;
}
const idle = (): Promise<void> =>
  expect.poll(async () => (await app.core.chat.state()).runningRunId, { timeout: 15_000 }).toBeNull();

describe('session rules in the rules editor', () => {
  it('lists an "allow for this session" rule, and deleting it makes the next call ask again', async () => {
    const write = { tool: 'write_file', input: { path: 'notes/a.txt', content: 'two\n' } };
    expect(await sessionRules()).toEqual([]);

    app.fake.enqueue(
      reply(toolUse('t1', 'write_file', { path: 'notes/a.txt', content: 'one\n' })),
      reply(text('written')),
    );
    await call('sendMessage', { text: 'write notes/a.txt' });
    const first = await nextApproval(0);
    const suggested = first.suggestedRules[0]!;
    await call('answerApproval', { requestId: first.requestId, decision: 'session' });
    await idle();

    expect(await sessionRules()).toEqual([
      {
        rule: suggested,
        behavior: 'allow',
        scope: 'session',
        file: null,
        claudeImport: false,
        editable: true,
        appliesToTools: true,
      },
    ]);
    // The simulator meets what the session's next call would meet.
    expect(await call('testCall', write)).toMatchObject({ decision: 'allow', source: 'session', rule: suggested });

    expect(await call('removeRule', { rule: suggested, behavior: 'allow', scope: 'session' })).toMatchObject({
      changed: true,
    });
    expect(await sessionRules()).toEqual([]);
    expect(await call('testCall', write)).toMatchObject({ decision: 'ask' });
    await expect(call('removeRule', { rule: suggested, behavior: 'allow', scope: 'session' })).rejects.toThrow(
      /not one of this session's rules/,
    );

    // The running session forgot it too: the same write asks again.
    app.fake.enqueue(
      reply(toolUse('t2', 'write_file', { path: 'notes/a.txt', content: 'two\n' })),
      reply(text('asked')),
    );
    await call('sendMessage', { text: 'write it again' });
    const second = await nextApproval(1);
    expect(second.tool).toBe('write_file');
    await call('answerApproval', { requestId: second.requestId, decision: 'deny' });
    await idle();
    expect(fs.readFileSync(`${app.core.currentProject()}/notes/a.txt`, 'utf8')).toBe('one\n');
  });

  it('refuses to delete from a scope that is not editable, and finds nothing when no session is open', async () => {
    await expect(call('removeRule', { rule: 'Bash(ls)', behavior: 'allow', scope: 'policy' })).rejects.toThrow(/scope/);
    await expect(call('removeRule', { rule: 'Bash(ls)', behavior: 'allow', scope: 'session' })).rejects.toThrow(
      /not one of this session's rules/,
    );
  });
});
