import type { z } from 'zod';
import type { ChatChannels } from '../../shared/chat-contract';
import type { ChatService } from './chat-service';

type Channels = typeof ChatChannels;
export type ChatHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

/** The renderer's chat channels: thin calls into the app's ChatService (the page holds no authority). */
export function createChatHandlers(chat: ChatService): ChatHandlers {
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
    listSessions: async () => ({ sessions: chat.listSessions() }),
    resumeSession: async ({ id }) => chat.resume(id),
    newSession: async () => {
      await chat.endSession();
      return { ok: true as const };
    },
  };
}
