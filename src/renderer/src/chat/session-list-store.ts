import { create } from 'zustand';
import type { GatehouseApi } from '../../../shared/api';
import type { SessionSummary } from '../../../shared/chat-contract';
import { errorMessage } from '../api/errors';
import { showConversation, useChat } from './chat-store';

/** The open project's sessions as main last listed them, and the one deleted last (for Undo). */
export interface SessionListState {
  sessions: SessionSummary[];
  error: string | null;
  deleted: { id: string; title: string } | null;
}

export const useSessionList = create<SessionListState>(() => ({ sessions: [], error: null, deleted: null }));

/** A session's name: the one the person gave, else its first prompt. */
export function sessionTitle(s: SessionSummary): string {
  const text = s.title || s.firstPrompt || s.lastPrompt || '';
  return text.trim() || 'Untitled session';
}

async function attempt(work: () => Promise<void>): Promise<boolean> {
  try {
    await work();
    useSessionList.setState({ error: null });
    return true;
  } catch (err) {
    useSessionList.setState({ error: errorMessage(err) });
    return false;
  }
}

export async function refreshSessions(api: GatehouseApi): Promise<void> {
  await attempt(async () => {
    const { sessions } = await api.listSessions({});
    useSessionList.setState({ sessions });
  });
}

export async function resumeSession(api: GatehouseApi, id: string): Promise<void> {
  await attempt(async () => {
    const resumed = await api.resumeSession({ id });
    showConversation(resumed);
    useChat.setState({ sessionId: resumed.sessionId, autoFallback: null });
  });
}

export async function startNewSession(api: GatehouseApi): Promise<void> {
  await attempt(async () => {
    await api.newSession({});
    showConversation({ messages: [] });
    useChat.setState({ sessionId: null, autoFallback: null });
  });
  await refreshSessions(api);
}

export async function renameSession(api: GatehouseApi, id: string, title: string): Promise<void> {
  await attempt(() => api.renameSession({ id, title }).then(() => undefined));
  await refreshSessions(api);
}

/** Deleted at once (to the trash), with Undo offered until the next delete. */
export async function deleteSession(api: GatehouseApi, session: SessionSummary): Promise<void> {
  const open = useChat.getState().sessionId === session.id;
  const ok = await attempt(async () => {
    await api.deleteSession({ id: session.id });
    useSessionList.setState({ deleted: { id: session.id, title: sessionTitle(session) } });
  });
  if (ok && open) {
    showConversation({ messages: [] });
    useChat.setState({ sessionId: null, autoFallback: null });
  }
  await refreshSessions(api);
}

export async function undoDelete(api: GatehouseApi): Promise<void> {
  const deleted = useSessionList.getState().deleted;
  if (!deleted) return;
  await attempt(async () => {
    await api.restoreSession({ id: deleted.id });
    useSessionList.setState({ deleted: null });
  });
  await refreshSessions(api);
}

export function dismissUndo(): void {
  useSessionList.setState({ deleted: null });
}
