import type { z } from 'zod';
import type { ModesChannels } from '../../../shared/modes-contract';
import type { SessionMode } from './session-mode';

type Channels = typeof ModesChannels;
export type ModesHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

/** The composer's permission-mode selector: thin calls into the chat's SessionMode (main refuses what is unsafe). */
export function createModesHandlers(modes: SessionMode): ModesHandlers {
  return {
    getPermissionMode: async () => modes.state(),
    setPermissionMode: async ({ mode }) => modes.set(mode),
  };
}
