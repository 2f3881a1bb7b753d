import { describe, expect, it } from 'vitest';
import type { HookRunsEvent, HookRunWire } from '../../../src/shared/agent-events';
import type { ConversationMessage } from '../../../src/shared/conversation';
import { itemsFromConversation } from '../../../src/renderer/src/chat/history';

const run = (event: string, outcome: HookRunWire['outcome'], message: string): HookRunWire => ({
  event,
  source: 'user',
  file: '/home/u/.gatehouse/settings.yaml',
  command: `${event}.sh`,
  durationMs: 3,
  outcome,
  message,
});

const user = (t: string): ConversationMessage => ({ role: 'user', content: [{ type: 'text', text: t }] });
const assistant = (t: string): ConversationMessage => ({ role: 'assistant', content: [{ type: 'text', text: t }] });

/** Each item in one word: the kind, the text, the hooks' events. */
function shape(items: ReturnType<typeof itemsFromConversation>): string[] {
  return items.map((it) => {
    if (it.kind === 'tool') return `tool:${it.callId}:${(it.hooks ?? []).map((h) => h.event).join('+')}`;
    if (it.kind === 'notice') return `hooks:${(it.hooks ?? []).map((h) => h.event).join('+')}`;
    return `${it.kind}:${it.text}`;
  });
}

describe('a stored session with hook runs, as the chat shows it again', () => {
  it('puts PostToolUse runs on their card and the other lines where they ran', () => {
    const messages: ConversationMessage[] = [
      user('read it'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'x', is_error: false }] },
      assistant('done'),
      user('again'),
      assistant('ok'),
    ];
    const hookRuns: HookRunsEvent[] = [
      { type: 'hook_runs', event: 'SessionStart', at: 0, hooks: [run('SessionStart', 'none', 'ctx')] },
      { type: 'hook_runs', event: 'UserPromptSubmit', at: 0, hooks: [run('UserPromptSubmit', 'none', 'ctx')] },
      { type: 'hook_runs', event: 'PostToolUse', id: 'c1', at: 2, hooks: [run('PostToolUse', 'block', 'tabs')] },
      { type: 'hook_runs', event: 'Stop', at: 3, hooks: [run('Stop', 'none', '')] },
      // A blocked prompt never reached the conversation: its line comes before the next prompt.
      { type: 'hook_runs', event: 'UserPromptSubmit', at: 4, hooks: [run('UserPromptSubmit', 'block', 'no')] },
      { type: 'hook_runs', event: 'UserPromptSubmit', at: 4, hooks: [run('UserPromptSubmit', 'none', '')] },
      // An `at` past the end (a run cut short) lands at the end.
      { type: 'hook_runs', event: 'Stop', at: 9, hooks: [run('Stop', 'failed', 'timed out')] },
    ];
    expect(shape(itemsFromConversation({ messages, hookRuns }))).toEqual([
      'user:read it',
      'hooks:SessionStart',
      'hooks:UserPromptSubmit',
      'tool:c1:PostToolUse',
      'assistant:done',
      'hooks:Stop',
      'hooks:UserPromptSubmit',
      'user:again',
      'hooks:UserPromptSubmit',
      'assistant:ok',
      'hooks:Stop',
    ]);
  });

  it('a session whose only prompt was blocked shows the line', () => {
    const hookRuns: HookRunsEvent[] = [
      { type: 'hook_runs', event: 'UserPromptSubmit', at: 0, hooks: [run('UserPromptSubmit', 'block', 'no')] },
    ];
    expect(shape(itemsFromConversation({ messages: [], hookRuns }))).toEqual(['hooks:UserPromptSubmit']);
  });
});
