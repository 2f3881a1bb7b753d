import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../src/shared/conversation';
import { estimateTokens, isTrimmed, trimMarker, trimToolOutputs } from '../../../src/worker/agent/context-window';

const result = (id: string, chars: number): ConversationMessage => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: 'x'.repeat(chars), is_error: false }],
});
const use = (id: string): ConversationMessage => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'read_file', input: { path: 'a' } }],
});

function conversation(sizes: number[]): ConversationMessage[] {
  const messages: ConversationMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'task' }] }];
  sizes.forEach((size, i) => messages.push(use(`t${i}`), result(`t${i}`, size)));
  return messages;
}

const contentOf = (m: ConversationMessage | undefined): string => {
  const block = m?.content[0];
  return block?.type === 'tool_result' ? block.content : '';
};

describe('context trimming', () => {
  it('estimates about four characters per token', () => {
    expect(estimateTokens([{ role: 'user', content: [{ type: 'text', text: 'x'.repeat(400) }] }])).toBe(100);
    expect(estimateTokens([], 40)).toBe(10);
  });

  it('leaves a conversation under the threshold untouched (same array)', () => {
    const messages = conversation([1_000, 1_000]);
    const out = trimToolOutputs(messages, { limitTokens: 10_000 });
    expect(out.trimmedResults).toBe(0);
    expect(out.messages).toBe(messages);
  });

  it('replaces the oldest tool outputs by a visible marker until under the threshold, keeping the newest', () => {
    const messages = conversation([8_000, 8_000, 8_000, 8_000]);
    // 5 100 tokens * 0.8 * 4 = 16 320 characters for ~32 100: two old outputs must go, not three.
    const out = trimToolOutputs(messages, { limitTokens: 5_100 });
    expect(out.trimmedResults).toBe(2);
    expect(out.trimmedChars).toBe(16_000);
    expect(contentOf(out.messages[2])).toBe(trimMarker(8_000));
    expect(contentOf(out.messages[2])).toBe('[tool output trimmed to save context: 8000 characters]');
    expect(contentOf(out.messages[4])).toBe(trimMarker(8_000));
    expect(contentOf(out.messages[6])).toHaveLength(8_000);
    expect(contentOf(out.messages[8])).toHaveLength(8_000);
    expect(estimateTokens(out.messages)).toBeLessThanOrEqual(4_080);
    // The input is not mutated.
    expect(contentOf(messages[2])).toHaveLength(8_000);
  });

  it('never trims the newest message, even when it alone is over the limit', () => {
    const messages = conversation([40, 50_000]);
    const out = trimToolOutputs(messages, { limitTokens: 1_000 });
    expect(contentOf(out.messages[4])).toHaveLength(50_000);
    expect(isTrimmed(contentOf(out.messages[2]))).toBe(false); // 40 chars: shorter than the marker, not worth it
  });

  it('counts the fixed part (system, tools) and does not trim a marker again', () => {
    const messages = conversation([4_000, 4_000, 10]);
    const first = trimToolOutputs(messages, { limitTokens: 3_000, fixedChars: 0 });
    expect(first.trimmedResults).toBe(0);
    const withFixed = trimToolOutputs(messages, { limitTokens: 3_000, fixedChars: 2_000 });
    expect(withFixed.trimmedResults).toBe(1);
    const again = trimToolOutputs(withFixed.messages, { limitTokens: 3_000, fixedChars: 2_000 });
    expect(again.trimmedResults).toBe(0);
  });
});
