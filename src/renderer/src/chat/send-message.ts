import type { GatehouseApi } from '../../../shared/api';
import type { AgentMode } from '../../../shared/permission';
import { errorMessage } from '../api/errors';
import { nextKey, pushItem, setUserRun, useChat } from './chat-store';

/** Sends a message: shown at once, the run marked as going; a refusal is shown as a notice. True when accepted. */
export async function sendMessage(api: GatehouseApi, text: string, mode?: AgentMode): Promise<boolean> {
  const agentMode = mode ?? useChat.getState().agentMode;
  const key = nextKey();
  pushItem({ kind: 'user', key, text });
  useChat.setState({ running: true, runAgentMode: agentMode, plan: null });
  try {
    const { runId, sessionId } = await api.sendMessage({ text, agentMode });
    useChat.setState((s) => (s.running ? { runId, sessionId } : { sessionId }));
    setUserRun(key, runId);
    return true;
  } catch (err) {
    useChat.setState({ running: false });
    pushItem({ kind: 'notice', key: nextKey(), tone: 'error', text: `Not sent: ${errorMessage(err)}` });
    return false;
  }
}
