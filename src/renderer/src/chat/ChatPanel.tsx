import { useEffect, useState } from 'react';
import type { AgentMode } from '../../../shared/permission';
import { errorMessage, useApi, useApiEvent, useConnection } from '../api';
import { useShell } from '../app/store';
import { ApprovalDialog } from './ApprovalDialog';
import type { ApprovalAnswerInput } from './ApprovalDialog';
import { applyChatEvent, applyChatState, nextKey, pushItem, useChat } from './chat-store';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { SessionsMenu } from './SessionsMenu';
import { RUN_PLAN_MESSAGE, RunPlanButton } from '../modes/RunPlanButton';

/** The chat with the agent: transcript, working indicator, message box and the approval queue. */
export function ChatPanel() {
  const api = useApi();
  const connected = useConnection().status === 'open';
  const project = useShell((s) => s.info?.project ?? null);
  const { items, running, usage, approvals, agentMode, hasModelKey, plan } = useChat();
  /** The request whose answer is on its way (its buttons are disabled; the next one in the queue is not). */
  const [answering, setAnswering] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);

  useEffect(() => {
    if (!connected) return;
    api.getChatState({}).then(applyChatState, () => undefined);
  }, [api, connected]);

  useApiEvent(applyChatEvent);

  const send = async (text: string, mode: AgentMode = agentMode): Promise<boolean> => {
    pushItem({ kind: 'user', key: nextKey(), text });
    useChat.setState({ running: true, runAgentMode: mode, plan: null });
    try {
      const { runId } = await api.sendMessage({ text, agentMode: mode });
      useChat.setState((s) => (s.running ? { runId } : s));
      return true;
    } catch (err) {
      useChat.setState({ running: false });
      pushItem({ kind: 'notice', key: nextKey(), tone: 'error', text: `Not sent: ${errorMessage(err)}` });
      return false;
    }
  };

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
    <section className="panel chat-panel" aria-labelledby="chat-title">
      <div className="chat-head">
        <h2 id="chat-title">Chat</h2>
        {project ? <SessionsMenu /> : null}
        {usage ? (
          <span className="chat-usage muted" data-testid="token-usage">
            Tokens: {usage.inputTokens.toLocaleString()} in · {usage.outputTokens.toLocaleString()} out
          </span>
        ) : null}
      </div>
      {!hasModelKey ? (
        <p className="warn-note">
          No model key: save one on the Settings page (Ctrl+,), or start Gatehouse with ANTHROPIC_API_KEY set.
        </p>
      ) : null}
      <MessageList items={items} />
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
          <span className="spinner" aria-hidden="true" /> Working…
          <button type="button" onClick={() => void cancel()} disabled={cancelling}>
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
