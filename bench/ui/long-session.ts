import type { ContentBlock, ConversationMessage } from '../../src/shared/conversation';
import { SessionStore } from '../../src/main/core/session/session-store';

export interface LongSession {
  id: string;
  /** Messages in the stored conversation. */
  messages: number;
  /** Text that only the newest message contains (to find it on the page). */
  lastMarker: string;
  /** Text that only the first message contains. */
  firstMarker: string;
}

const WORDS = [
  'permission',
  'engine',
  'worker',
  'sandbox',
  'renderer',
  'transcript',
  'approval',
  'rule',
  'session',
  'project',
  'command',
  'diff',
];

function words(n: number, seed: number): string {
  return Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]).join(' ');
}

/** The n-th message (1-based) of the long conversation: mixed prose, code, lists and tool calls, like real sessions. */
function longMessage(n: number, total: number): ConversationMessage {
  const marker =
    n === total ? ` (message ${n} of ${total}: the newest)` : n === 1 ? ` (message 1 of ${total}: the first)` : '';
  if (n % 2 === 1) {
    const content: ContentBlock[] = [];
    // After an assistant turn that called a tool, the user message carries its result.
    if (n > 1 && (n - 1) % 10 === 0)
      content.push({
        type: 'tool_result',
        tool_use_id: `toolu_${n - 1}`,
        content: `line 1\nline 2\n${words(12, n)}`,
        is_error: n % 20 === 1,
      });
    content.push({
      type: 'text',
      text: `Question ${n}${marker}: how does the ${words(3, n)} handle ${words(n % 9, n + 1)}?`,
    });
    return { role: 'user', content };
  }
  const paragraphs = [
    `Answer ${n}${marker}. The **${words(2, n)}** decides first; \`${WORDS[n % WORDS.length]}.ts\` keeps ${words(14 + (n % 30), n)}.`,
  ];
  if (n % 3 === 0)
    paragraphs.push(
      '```ts\n' +
        `export function step${n}(input: string): string {\n  return input.trim(); // ${words(4, n)}\n}\n` +
        '```',
    );
  if (n % 4 === 0) paragraphs.push(`- ${words(5, n)}\n- ${words(6, n + 2)}\n- ${words(4, n + 5)}`);
  if (n % 5 === 0) paragraphs.push(words(40 + (n % 50), n + 3));
  const content: ContentBlock[] = [{ type: 'text', text: paragraphs.join('\n\n') }];
  if (n % 10 === 0 && n < total)
    content.push({ type: 'tool_use', id: `toolu_${n}`, name: 'read_file', input: { path: `src/file-${n}.ts` } });
  return { role: 'assistant', content };
}

/**
 * Writes a stored session of `messages` messages for `projectRoot` under `configDir`, with the session store's own
 * writer (header, then one prompt + conversation record per run of 100 messages), exactly as a long chat leaves it.
 */
export async function writeLongSession(configDir: string, projectRoot: string, messages = 5000): Promise<LongSession> {
  const store = new SessionStore({ configDir });
  const { header, writer } = await store.create({ projectRoot, agentMode: 'chat', model: 'claude-bench' });
  const conversation: ConversationMessage[] = [];
  const perRun = 100;
  try {
    for (let start = 1; start <= messages; start += perRun) {
      const runId = `run-${start}`;
      const first = longMessage(start, messages);
      const prompt = first.content.find((b) => b.type === 'text');
      writer.append({ type: 'prompt', runId, text: prompt?.type === 'text' ? prompt.text : '', agentMode: 'chat' });
      for (let n = start; n < start + perRun && n <= messages; n++) conversation.push(longMessage(n, messages));
      writer.recordConversation(runId, conversation);
      writer.append({
        type: 'result',
        runId,
        status: 'completed',
        usage: { inputTokens: 1000, outputTokens: 500 },
        turns: 1,
        finalText: '',
      });
    }
  } finally {
    await writer.close();
  }
  return {
    id: header.id,
    messages,
    lastMarker: `message ${messages} of ${messages}: the newest`,
    firstMarker: `message 1 of ${messages}: the first`,
  };
}
