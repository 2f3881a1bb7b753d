import type { z } from 'zod';
import { GatehouseError } from '../../../shared/errors';
import type { ChatChannels } from '../../../shared/chat-contract';
import type { ChatService } from './chat-service';
import { SessionCatalog } from './session-catalog';

type Channels = typeof ChatChannels;
export type ChatHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

/** The renderer's chat channels: thin calls into the app's ChatService (the page holds no authority). */
export function createChatHandlers(chat: ChatService, configDir: string): ChatHandlers {
  const catalog = new SessionCatalog({
    configDir,
    list: () => chat.listSessions(),
    openSessionId: () => chat.activity().sessionId,
    endSession: () => chat.endSession(),
  });
  return {
    sendMessage: async ({ text, agentMode }) => chat.send(text, agentMode),
    cancelRun: async () => ({ cancelled: await chat.cancel() }),
    answerApproval: async ({ requestId, decision, note, rule }) => ({
      accepted: chat.answer(requestId, decision, note, rule),
    }),
    getChatState: async () => {
      await chat.keyReady();
      return chat.state();
    },
    listSessions: async () => ({ sessions: await catalog.list() }),
    resumeSession: async ({ id }) => chat.resume(id),
    newSession: async () => {
      await chat.endSession();
      return { ok: true as const };
    },
    renameSession: async ({ id, title }) => {
      await catalog.rename(id, title);
      return { ok: true as const };
    },
    deleteSession: async ({ id }) => {
      const now = chat.activity();
      if (now.runningRunId !== null && now.sessionId === id)
        throw new GatehouseError('BAD_REQUEST', 'the agent is still working in this session: wait or cancel it');
      return { deleted: await catalog.delete(id) };
    },
    restoreSession: async ({ id }) => ({ restored: await catalog.restore(id) }),
  };
}
