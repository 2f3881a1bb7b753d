import { useChat } from '../chat/chat-store';
import { openRewind } from './rewind-store';

/** On one of the person's messages: go back to just before it (files, conversation or both, after a preview). */
export function RewindButton({ runId }: { runId: string }) {
  const running = useChat((s) => s.running);
  return (
    <button
      type="button"
      className="link msg-rewind"
      disabled={running}
      title="Put the files and the conversation back as they were before this message (a preview comes first)"
      onClick={() => openRewind(runId)}
    >
      Rewind to here
    </button>
  );
}
