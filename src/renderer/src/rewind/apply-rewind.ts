import type { GatehouseApi } from '../../../shared/api';
import type { RestoreResult } from '../../../shared/checkpoint-contract';
import type { RewindResult } from '../../../shared/rewind-contract';
import { nextKey, pushItem, showConversation, useChat } from '../chat/chat-store';
import { refreshSessions } from '../chat/session-list-store';

/** The transcript after a rewind: the copy of the session (its message back in the box), and what the files did. */
export async function applyRewind(api: GatehouseApi, result: RewindResult): Promise<void> {
  if (result.session) {
    showConversation(result.session);
    useChat.setState((s) => ({
      sessionId: result.session?.sessionId ?? null,
      autoFallback: null,
      plan: null,
      composerDraft: { text: result.prompt, n: (s.composerDraft?.n ?? 0) + 1 },
    }));
  }
  pushItem({
    kind: 'notice',
    key: nextKey(),
    tone: 'info',
    text: rewindSummary(result),
  });
  await refreshSessions(api);
}

function files(n: number): string {
  return n === 1 ? '1 file' : `${n} files`;
}

function restoreSummary(r: RestoreResult): string {
  const parts = [`Files rewound: ${files(r.restored.length)} put back.`];
  if (r.kept.length)
    parts.push(
      `Kept as they are (changed outside the agent): ${r.kept
        .slice(0, 10)
        .map((f) => f.path)
        .join(', ')}${r.kept.length > 10 ? `, and ${r.kept.length - 10} more` : ''}.`,
    );
  if (r.undo) parts.push(`To undo: gatehouse checkpoints restore ${r.undo.id} --yes`);
  return parts.join(' ');
}

/** One line saying what the rewind did. */
function rewindSummary(result: RewindResult): string {
  const conversation = result.session
    ? 'Conversation rewound to before your message (the earlier session is kept).'
    : '';
  const restored = result.restore ? restoreSummary(result.restore) : '';
  return [conversation, restored].filter(Boolean).join(' ');
}
