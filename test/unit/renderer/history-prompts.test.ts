import { describe, expect, it } from 'vitest';
import { itemsFromConversation } from '../../../src/renderer/src/chat/history';
import type { ConversationMessage } from '../../../src/shared/conversation';

// A reloaded or rewound conversation shows each of the person's messages as they wrote it, once, with its run: the
// stored conversation holds it as the model got it (plan mode wraps it and adds a reminder block).

describe('the person’s messages in a stored conversation', () => {
  it('are shown as written, once, with their run; other user text stays as it is', () => {
    const messages: ConversationMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'You are planning. <task>\nPlan something\n</task>' },
          { type: 'text', text: '<reminder>plan mode</reminder>' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Here is a plan.' }] },
      { role: 'user', content: [{ type: 'text', text: 'an older transcript without prompt texts' }] },
    ];
    const items = itemsFromConversation({
      messages,
      prompts: [
        { runId: 'r1', index: 0, text: 'Plan something' },
        { runId: 'r2', index: 2 },
      ],
    });
    expect(items.map((i) => (i.kind === 'user' ? `user ${i.runId}: ${i.text}` : i.kind))).toEqual([
      'user r1: Plan something',
      'assistant',
      'user r2: an older transcript without prompt texts',
    ]);
  });
});
