import type { z } from 'zod';
import { GatehouseError } from '../../../shared/errors';
import type { UpdatesChannels, UpdateStatus } from '../../../shared/updates-contract';
import { GATEHOUSE_VERSION } from '../../../shared/version';

type Channels = typeof UpdatesChannels;
export type UpdatesHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

/** A shell's updater (the desktop's electron-updater service); absent where the app does not update itself. */
export interface UpdatesSource {
  status(): UpdateStatus;
  check(): Promise<UpdateStatus>;
  install(): Promise<UpdateStatus>;
  onStatus(listener: (status: UpdateStatus) => void): () => void;
}

/** The Settings page's "Updates" line: the shell's updater, or the plain fact that this shell has none. */
export function createUpdatesHandlers(updates: UpdatesSource | undefined): UpdatesHandlers {
  const none: UpdateStatus = {
    currentVersion: GATEHOUSE_VERSION,
    state: 'unavailable',
    message:
      'This shell does not update itself: it runs from the Gatehouse package that installed it (update that package).',
    version: null,
    percent: null,
    checkedAt: null,
  };
  return {
    getUpdateStatus: async () => updates?.status() ?? none,
    checkForUpdates: async () => (updates ? updates.check() : none),
    installUpdate: async () => {
      if (!updates) throw new GatehouseError('FORBIDDEN', 'this shell does not update itself');
      return updates.install();
    },
  };
}
