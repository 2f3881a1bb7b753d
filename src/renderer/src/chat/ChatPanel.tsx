import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AgentMode } from '../../../shared/permission';
import { errorMessage } from '../api/errors';
import { useApi, useApiEvent, useConnection } from '../api/context';
import { useShell } from '../app/store';
import { RUN_PLAN_MESSAGE, RunPlanButton } from '../modes/RunPlanButton';
import { ApprovalDialog } from './ApprovalDialog';
import type { ApprovalAnswerInput } from './ApprovalDialog';
import { applyChatEvent, applyChatState, nextKey, pushItem, transcriptGeneration, useChat } from './chat-store';
import { ChatHeader } from './ChatHeader';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { sendMessage } from './send-message';
import { RewindDialog } from '../rewind/RewindDialog';

import './chat.css';

/** The transcript: the one part of the chat that re-renders while an answer streams. */
function Transcript({ project, hasModelKey }: { project: string | null; hasModelKey: boolean }) {
  const items = useChat((s) => s.items);
  return <MessageList items={items} project={project} hasModelKey={hasModelKey} />;
}

/** The chat with the agent: transcript (it alone scrolls), working line, composer, status bar and the approvals. */
export function ChatPanel() {
  const api = useApi();
  const connected = useConnection().status === 'open';
  const project = useShell((s) => s.info?.project ?? null);
  // Not the transcript: it changes with every streamed render, and only the list shows it.
  const { running, approvals, agentMode, hasModelKey, plan } = useChat(
    useShallow((s) => ({
      running: s.running,
      approvals: s.approvals,
      agentMode: s.agentMode,
      hasModelKey: s.hasModelKey,
      plan: s.plan,
    })),
  );
  /** The request whose answer is on its way (its buttons are disabled; the next one in the queue is not). */
  const [answering, setAnswering] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);

  useEffect(() => {
    if (!connected) return;
    // A new session (or a resumed one) shown while the state was on its way wins: the state is of the one before.
    const generation = transcriptGeneration();
    api.getChatState({}).then(
      (state) => {
        if (generation === transcriptGeneration()) applyChatState(state);
      },
      () => undefined,
    );
  }, [api, connected]);

  useApiEvent(applyChatEvent);

  const send = (text: string, mode: AgentMode = agentMode): Promise<boolean> => sendMessage(api, text, mode);

  const cancel = async () => {
    setCancelling(true);
    try {
      await api.cancelRun({});
    } finally {
      setCancelling(false);
    }
  };

  const current = approvals[0];
  const answer = async (input: ApprovalAnswerInput) => {
    if (!current) return;
    setAnswering(current.requestId);
    try {
      await api.answerApproval({ requestId: current.requestId, ...input });
    } catch (err) {
      pushItem({
        kind: 'notice',
        key: nextKey(),
        tone: 'error',
        text: `The answer did not arrive: ${errorMessage(err)}`,
      });
    } finally {
      // Answered (or gone): the next one in the queue shows; main's approvalClosed confirms it.
      useChat.setState((s) => ({ approvals: s.approvals.filter((a) => a.requestId !== current.requestId) }));
      setAnswering(null);
    }
  };

  return (
    <section className="chat-panel" aria-labelledby="chat-title">
      <ChatHeader />
      <Transcript project={project} hasModelKey={hasModelKey} />
      {plan && !running ? (
        <RunPlanButton
          disabled={!project || !connected}
          onRun={() => {
            // Do mode from now on, and a message asking the agent to carry out the plan above.
            useChat.setState({ agentMode: 'do' });
            void send(RUN_PLAN_MESSAGE, 'do');
          }}
        />
      ) : null}
      {running ? (
        <div className="chat-working" role="status" data-testid="chat-working">
          <span className="spinner" aria-hidden="true" />{' '}
          {approvals.length > 0 ? 'Waiting for your approval…' : 'Working…'}
          <button type="button" className="secondary" onClick={() => void cancel()} disabled={cancelling}>
            Cancel
          </button>
        </div>
      ) : null}
      <Composer
        running={running}
        disabled={!project || !connected}
        agentMode={agentMode}
        onAgentMode={(mode) => useChat.setState({ agentMode: mode })}
        onSend={send}
        onCancel={() => void cancel()}
      />
      <RewindDialog />
      {current ? (
        <ApprovalDialog
          key={current.requestId}
          request={current}
          position={1}
          total={approvals.length}
          busy={answering === current.requestId}
          onAnswer={(a) => void answer(a)}
        />
      ) : null}
    </section>
  );
}
