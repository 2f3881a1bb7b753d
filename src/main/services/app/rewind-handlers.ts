import type { z } from 'zod';
import type { CheckpointEntry } from '../../../shared/checkpoint-contract';
import { GatehouseError } from '../../../shared/errors';
import type { ResumedSession } from '../../../shared/chat-contract';
import type { RewindChannels } from '../../../shared/rewind-contract';
import type { AgentSession } from '../agent-runs/agent-session';
import { forkSession } from '../../core/session/session-fork';
import { SessionStore } from '../../core/session/session-store';
import type { ChatService } from './chat-service';
import { SessionCatalog } from './session-catalog';

type Channels = typeof RewindChannels;
export type RewindHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

interface Target {
  session: AgentSession;
  prompt: string;
  checkpoint: CheckpointEntry | null;
}

/** Why a message's files cannot be rewound (null: they can). */
function filesUnavailable(checkpoint: CheckpointEntry | null): string | null {
  if (!checkpoint) return 'no checkpoint was taken before this message (plan mode, or checkpoints were off)';
  if (!checkpoint.commit)
    return `the checkpoint before this message holds no files: ${checkpoint.error ?? 'not taken'}`;
  return null;
}

/**
 * "Rewind to here" in the chat: the files through the session's checkpoints (audited like every restore), the
 * conversation by opening a copy of the session that ends just before the message (the session itself is kept).
 */
export function createRewindHandlers(chat: ChatService, configDir: string): RewindHandlers {
  const store = new SessionStore({ configDir });
  const catalog = new SessionCatalog({
    configDir,
    list: () => chat.listSessions(),
    openSessionId: () => chat.activity().sessionId,
    endSession: () => chat.endSession(),
  });

  const target = async (session: AgentSession | null, runId: string): Promise<Target> => {
    if (!session || !session.prompts.some((p) => p.runId === runId))
      throw new GatehouseError(
        'NOT_FOUND',
        "that message is not in the open session's conversation (a hook blocked it, or another session is open now)",
      );
    const loaded = await store.load(session.id);
    const entry = loaded.entries.find((e) => e.type === 'prompt' && e.runId === runId);
    const checkpoints = await session.checkpoints.list();
    return {
      session,
      prompt: entry?.type === 'prompt' ? entry.text : '',
      checkpoint: checkpoints.find((c) => c.kind === 'turn' && c.runId === runId) ?? null,
    };
  };

  return {
    previewRewind: async ({ runId }) => {
      const { session, prompt, checkpoint } = await target(chat.openSessionNow, runId);
      const unavailable = filesUnavailable(checkpoint);
      const diff = unavailable === null && checkpoint ? await session.checkpoints.diff(checkpoint.id) : null;
      return { runId, prompt, checkpoint, diff, filesUnavailable: unavailable };
    },
    rewind: async ({ runId, files, conversation, overwriteExternal }) => {
      const done = await chat.whileIdle(async (open) => {
        const { session, prompt, checkpoint } = await target(open, runId);
        const unavailable = filesUnavailable(checkpoint);
        if (files && (unavailable !== null || !checkpoint)) throw new GatehouseError('BAD_REQUEST', unavailable ?? '');
        const restore =
          files && checkpoint ? await session.checkpoints.restore(checkpoint.id, { overwriteExternal }) : null;
        const fork = conversation ? await forkSession(store, session.id, runId) : null;
        const title = fork ? ((await catalog.titleOf(session.id)) ?? fork.firstPrompt ?? prompt) : null;
        return { restore, prompt, fork, title };
      });
      let resumed: ResumedSession | null = null;
      if (done.fork) {
        resumed = await chat.resume(done.fork.header.id);
        // A copy of a copy is still "(rewound)" once.
        const base = (done.title ?? '').trim().replace(/ \(rewound\)$/, '');
        const title = `${base.slice(0, 180) || 'Session'} (rewound)`;
        // The name only helps the person tell the copy from the session: a failure to save it loses nothing.
        await catalog.rename(resumed.sessionId, title).catch(() => undefined);
      }
      return { restore: done.restore, session: resumed, prompt: done.prompt };
    },
  };
}
